#!/usr/bin/env bash
# Fetches the real upstream CRDs from their Go modules at pinned versions and
# copies them into a cache outside the repository. Prints that directory on
# its last line. Skipped when the CRDs for these pins are already there.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/lib.sh"

OPENSHIFT_API=github.com/openshift/api@v0.0.0-20260715165912-72066cc9718b
CLUSTER_API=sigs.k8s.io/cluster-api@v1.13.6
CAPA=sigs.k8s.io/cluster-api-provider-aws/v2@v2.11.0
CAPO=sigs.k8s.io/cluster-api-provider-openstack@v0.14.2
CAPG=sigs.k8s.io/cluster-api-provider-gcp@v1.12.0
CAPZ=sigs.k8s.io/cluster-api-provider-azure@v1.26.0
CAPIBM=sigs.k8s.io/cluster-api-provider-ibmcloud@v0.13.1
CAPV=sigs.k8s.io/cluster-api-provider-vsphere@v1.15.2
PROMETHEUS_OPERATOR=github.com/prometheus-operator/prometheus-operator@v0.85.0
CLUSTER_AUTOSCALER_OPERATOR=github.com/openshift/cluster-autoscaler-operator@v0.0.1-0.20260608074635-5c8643284941

# The CAPI contract label each provider's config/crd kustomization adds to its CRDs (Cluster API
# reads it to find the version of a referenced infrastructure object); the bases lack it.
CAPA_CONTRACT=cluster.x-k8s.io/v1beta1=v1beta1_v1beta2
CAPO_CONTRACT=cluster.x-k8s.io/v1beta1=v1beta1
CAPG_CONTRACT=cluster.x-k8s.io/v1beta1=v1beta1
CAPZ_CONTRACT=cluster.x-k8s.io/v1beta1=v1beta1
CAPIBM_CONTRACT=cluster.x-k8s.io/v1beta1=v1beta1_v1beta2
CAPV_CONTRACT=cluster.x-k8s.io/v1beta1=v1beta1

# module  path-inside-the-module  [label=value added to metadata.labels]
CRDS="
$OPENSHIFT_API machine/v1beta1/zz_generated.crd-manifests/0000_10_machine-api_01_machinesets-CustomNoUpgrade.crd.yaml
$OPENSHIFT_API machine/v1beta1/zz_generated.crd-manifests/0000_10_machine-api_01_machines-CustomNoUpgrade.crd.yaml
$OPENSHIFT_API machine/v1beta1/zz_generated.crd-manifests/0000_10_machine-api_01_machinehealthchecks.crd.yaml
$OPENSHIFT_API config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_infrastructures-Default.crd.yaml
$OPENSHIFT_API config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_dnses-Default.crd.yaml
$OPENSHIFT_API config/v1/zz_generated.crd-manifests/0000_00_cluster-version-operator_01_clusteroperators.crd.yaml
$CLUSTER_API config/crd/bases/cluster.x-k8s.io_machinesets.yaml
$CLUSTER_API config/crd/bases/cluster.x-k8s.io_clusters.yaml
$CLUSTER_API config/crd/bases/cluster.x-k8s.io_machines.yaml
$CLUSTER_API config/crd/bases/cluster.x-k8s.io_machinedeployments.yaml
$CLUSTER_API config/crd/bases/cluster.x-k8s.io_machinepools.yaml
$CAPA config/crd/bases/infrastructure.cluster.x-k8s.io_awsmachinetemplates.yaml $CAPA_CONTRACT
$CAPA config/crd/bases/infrastructure.cluster.x-k8s.io_awsmachines.yaml $CAPA_CONTRACT
$CAPA config/crd/bases/infrastructure.cluster.x-k8s.io_awsclusters.yaml $CAPA_CONTRACT
$CAPA config/crd/bases/infrastructure.cluster.x-k8s.io_awsclustertemplates.yaml $CAPA_CONTRACT
$CAPO config/crd/bases/infrastructure.cluster.x-k8s.io_openstackmachinetemplates.yaml $CAPO_CONTRACT
$CAPO config/crd/bases/infrastructure.cluster.x-k8s.io_openstackmachines.yaml $CAPO_CONTRACT
$CAPO config/crd/bases/infrastructure.cluster.x-k8s.io_openstackservers.yaml
$CAPG config/crd/bases/infrastructure.cluster.x-k8s.io_gcpmachinetemplates.yaml $CAPG_CONTRACT
$CAPG config/crd/bases/infrastructure.cluster.x-k8s.io_gcpmachines.yaml $CAPG_CONTRACT
$CAPZ config/crd/bases/infrastructure.cluster.x-k8s.io_azuremachinetemplates.yaml $CAPZ_CONTRACT
$CAPZ config/crd/bases/infrastructure.cluster.x-k8s.io_azuremachines.yaml $CAPZ_CONTRACT
$CAPIBM config/crd/bases/infrastructure.cluster.x-k8s.io_ibmpowervsmachinetemplates.yaml $CAPIBM_CONTRACT
$CAPIBM config/crd/bases/infrastructure.cluster.x-k8s.io_ibmpowervsmachines.yaml $CAPIBM_CONTRACT
$CAPV config/default/crd/bases/infrastructure.cluster.x-k8s.io_vspheremachinetemplates.yaml $CAPV_CONTRACT
$CAPV config/default/crd/bases/infrastructure.cluster.x-k8s.io_vspheremachines.yaml $CAPV_CONTRACT
$CAPV config/default/crd/bases/infrastructure.cluster.x-k8s.io_vspherevms.yaml $CAPV_CONTRACT
$CAPV config/default/crd/bases/infrastructure.cluster.x-k8s.io_vsphereclusters.yaml $CAPV_CONTRACT
$CAPV config/default/crd/bases/infrastructure.cluster.x-k8s.io_vspherefailuredomains.yaml $CAPV_CONTRACT
$CAPV config/default/crd/bases/infrastructure.cluster.x-k8s.io_vspheredeploymentzones.yaml $CAPV_CONTRACT
$PROMETHEUS_OPERATOR example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml
$PROMETHEUS_OPERATOR example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml
$CLUSTER_AUTOSCALER_OPERATOR install/02_machineautoscaler.crd.yaml
"

# --modules: only list the modules, so that a caller can download them ahead (hack/build-all.sh).
if [ "${1:-}" = --modules ]; then
  echo "$CRDS" | awk 'NF { print $1 }' | sort -u
  exit 0
fi

require_tool go "install the Go toolchain: the CRDs are fetched through the Go module proxy"
KEY="$(echo "$CRDS" | sha256sum | cut -c1-16)"
OUT="$CACHE_ROOT/crds/$KEY"
if [ -f "$OUT/.complete" ]; then
  log "CRDs already fetched in $OUT"
  echo "$OUT"
  exit 0
fi

mkdir -p "$OUT"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
declare -A DIRS=()
i=0
while read -r module path label; do
  [ -n "$module" ] || continue
  if [ -z "${DIRS[$module]:-}" ]; then
    log "downloading $module"
    json="$(cd "$SCRATCH" && GOFLAGS=-mod=mod go mod download -json "$module")" ||
      die "could not download $module through the Go module proxy: $json"
    DIRS[$module]="$(echo "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [ -n "${DIRS[$module]}" ] || die "go mod download printed no Dir for $module"
  fi
  src="${DIRS[$module]}/$path"
  [ -f "$src" ] || die "$path is not in $module"
  i=$((i + 1))
  dest="$OUT/$(printf '%02d' "$i")-$(basename "$path")"
  if [ -n "${label:-}" ]; then
    grep -q '^  labels:' "$src" && die "$path already has labels; add $label by hand"
    awk -v key="${label%%=*}" -v value="${label#*=}" \
      '{ print } /^metadata:$/ && !done { print "  labels:"; print "    " key ": " value; done = 1 }' \
      "$src" >"$dest"
  else
    cp "$src" "$dest"
  fi
  chmod 644 "$OUT"/*
done <<<"$CRDS"
touch "$OUT/.complete"
log "fetched $i CRDs into $OUT"
echo "$OUT"
