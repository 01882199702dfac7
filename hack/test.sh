#!/usr/bin/env bash
# Runs every test CI runs (typecheck, lint, unit, integration against a real
# control plane). Installs what it needs (npm ci, Go builds) on a fresh clone.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/hack/lib.sh"
ensure_node_modules "$ROOT"
cd "$ROOT" && exec npm test
