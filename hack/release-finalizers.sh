#!/usr/bin/env bash
# Removes the controller's finalizer (sync.machine.openshift.io/finalizer) from every MAPI and
# CAPI MachineSet and Machine, for an uninstall: without the controller nothing would release it,
# and a MachineSet or Machine deleted later would wait for ever. Other finalizers are left alone.
# (Templates and infrastructure machines never carry it.)
#
# A paused CAPI mirror of a MachineAPI-authoritative object that exists is released with the record
# of its own uid (sync.machine.openshift.io/mirror-uid): once nothing holds the MAPI object, that
# record is what proves the mirror ours, so that the reinstalled controller deletes it should its
# MAPI object be deleted meanwhile. A copy of a mirror records another uid and is left alone.
#
# Usage: hack/release-finalizers.sh [MAPI_NAMESPACE [CAPI_NAMESPACE]]
# Uses `oc`, else `kubectl` (KUBECTL=path overrides), with the current kubeconfig context.
set -euo pipefail

FINALIZER=sync.machine.openshift.io/finalizer
MAPI_NAMESPACE="${1:-openshift-machine-api}"
CAPI_NAMESPACE="${2:-openshift-cluster-api}"
KUBECTL="${KUBECTL:-$(command -v oc || command -v kubectl || true)}"
[ -n "$KUBECTL" ] || { echo "release-finalizers: neither oc nor kubectl is on PATH" >&2; exit 1; }

MIRROR_UID=sync.machine.openshift.io/mirror-uid
AUTHORITY=sync.machine.openshift.io/authoritative-api
PAUSED=cluster.x-k8s.io/paused

# "name index" for each object that carries the finalizer
FIND='{{range .items}}{{$name := .metadata.name}}{{range $i, $f := .metadata.finalizers}}'
FIND+="{{if eq \$f \"$FINALIZER\"}}{{\$name}} {{\$i}}{{\"\\n\"}}{{end}}{{end}}{{end}}"

# "name index uid paused authority record" for each object that carries the finalizer ("-": none)
FIND_MIRRORS='{{range .items}}{{$o := .}}{{range $i, $f := .metadata.finalizers}}'
FIND_MIRRORS+="{{if eq \$f \"$FINALIZER\"}}{{\$paused := \"-\"}}{{\$authority := \"-\"}}{{\$record := \"-\"}}"
FIND_MIRRORS+='{{range $k, $v := $o.metadata.annotations}}'
FIND_MIRRORS+="{{if eq \$k \"$PAUSED\"}}{{\$paused = \"paused\"}}{{end}}"
FIND_MIRRORS+="{{if and (eq \$k \"$AUTHORITY\") \$v}}{{\$authority = \$v}}{{end}}"
FIND_MIRRORS+="{{if and (eq \$k \"$MIRROR_UID\") \$v}}{{\$record = \$v}}{{end}}{{end}}"
FIND_MIRRORS+='{{$o.metadata.name}} {{$i}} {{$o.metadata.uid}} {{$paused}} {{$authority}} {{$record}}{{"\n"}}{{end}}{{end}}{{end}}'

names() {
  "$KUBECTL" get "$2" -n "$1" -o 'go-template={{range .items}}{{.metadata.name}} {{end}}'
}

# "test" makes a patch fail instead of removing another finalizer if the list moved
remove_op() {
  printf '{"op":"test","path":"/metadata/finalizers/%s","value":"%s"},{"op":"remove","path":"/metadata/finalizers/%s"}' \
    "$1" "$FINALIZER" "$1"
}

release() {
  local namespace="$1" resource="$2" name index
  "$KUBECTL" get "$resource" -n "$namespace" -o "go-template=$FIND" |
    while read -r name index; do
      "$KUBECTL" patch "$resource" "$name" -n "$namespace" --type=json -p "[$(remove_op "$index")]"
    done
}

# RESOURCE MAPI_NAMES: the CAPI resource, and the names of its MAPI twins taken before any of them
# was released (a MAPI object being deleted goes once released; its mirror still follows it).
release_mirrors() {
  local resource="$1" mapi_names=" $2 " name index uid paused authority record ops
  "$KUBECTL" get "$resource" -n "$CAPI_NAMESPACE" -o "go-template=$FIND_MIRRORS" |
    while read -r name index uid paused authority record; do
      ops="$(remove_op "$index")"
      if [ "$paused" = paused ] && [ "$authority" = MachineAPI ] && [ "$record" = - ] &&
        [[ "$mapi_names" == *" $name "* ]]; then
        ops+=",{\"op\":\"add\",\"path\":\"/metadata/annotations/${MIRROR_UID/\//~1}\",\"value\":\"$uid\"}"
      fi
      "$KUBECTL" patch "$resource" "$name" -n "$CAPI_NAMESPACE" --type=json -p "[$ops]"
    done
}

MAPI_MACHINE_SETS="$(names "$MAPI_NAMESPACE" machinesets.machine.openshift.io)"
MAPI_MACHINES="$(names "$MAPI_NAMESPACE" machines.machine.openshift.io)"
release "$MAPI_NAMESPACE" machinesets.machine.openshift.io
release "$MAPI_NAMESPACE" machines.machine.openshift.io
release_mirrors machinesets.cluster.x-k8s.io "$MAPI_MACHINE_SETS"
release_mirrors machines.cluster.x-k8s.io "$MAPI_MACHINES"
