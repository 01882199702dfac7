#!/usr/bin/env bash
# Runs a command on the Node.js the image runs (.node-version), fetching it when the machine's own
# node is of another major: `hack/with-node.sh npm run bench`, `hack/with-node.sh npx mocha …`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
source "$ROOT/hack/lib.sh"
ensure_node_modules "$ROOT"
exec "$@"
