#!/usr/bin/env bash
# The main job: starts a local control plane and shows the MachineSets of both APIs.
# Installs what it needs (npm ci, Go builds) on a fresh clone; leaves no process behind.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/hack/lib.sh"
ensure_node_modules "$ROOT"
bash "$ROOT/hack/build-all.sh" --demo
cd "$ROOT" && exec npm run --silent demo
