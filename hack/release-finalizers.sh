#!/usr/bin/env bash
# Removes the controller's finalizer (sync.machine.openshift.io/finalizer) from every MAPI and
# CAPI MachineSet and Machine, for an uninstall: without the controller nothing would release it,
# and a MachineSet or Machine deleted later would wait for ever. Other finalizers are left alone.
# (Templates and infrastructure machines never carry it.)
#
# Usage: hack/release-finalizers.sh [MAPI_NAMESPACE [CAPI_NAMESPACE]]
# Uses `oc`, else `kubectl` (KUBECTL=path overrides), with the current kubeconfig context.
set -euo pipefail

FINALIZER=sync.machine.openshift.io/finalizer
MAPI_NAMESPACE="${1:-openshift-machine-api}"
CAPI_NAMESPACE="${2:-openshift-cluster-api}"
KUBECTL="${KUBECTL:-$(command -v oc || command -v kubectl || true)}"
[ -n "$KUBECTL" ] || { echo "release-finalizers: neither oc nor kubectl is on PATH" >&2; exit 1; }

# "name index" for each object that carries the finalizer
FIND='{{range .items}}{{$name := .metadata.name}}{{range $i, $f := .metadata.finalizers}}'
FIND+="{{if eq \$f \"$FINALIZER\"}}{{\$name}} {{\$i}}{{\"\\n\"}}{{end}}{{end}}{{end}}"

release() {
  local namespace="$1" resource="$2" name index
  "$KUBECTL" get "$resource" -n "$namespace" -o "go-template=$FIND" |
    while read -r name index; do
      # "test" makes the patch fail instead of removing another finalizer if the list moved
      "$KUBECTL" patch "$resource" "$name" -n "$namespace" --type=json -p \
        "[{\"op\":\"test\",\"path\":\"/metadata/finalizers/$index\",\"value\":\"$FINALIZER\"},{\"op\":\"remove\",\"path\":\"/metadata/finalizers/$index\"}]"
    done
}

release "$MAPI_NAMESPACE" machinesets.machine.openshift.io
release "$MAPI_NAMESPACE" machines.machine.openshift.io
release "$CAPI_NAMESPACE" machinesets.cluster.x-k8s.io
release "$CAPI_NAMESPACE" machines.cluster.x-k8s.io
