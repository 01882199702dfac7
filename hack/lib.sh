# Shared helpers for the hack/ scripts. Source it; do not run it.

# Everything built or downloaded lives here, outside the repository.
CACHE_ROOT="${MAPI_CAPI_SYNC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mapi-capi-sync}"

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# A static, path-free go build with the local toolchain. The compiler collects its heap
# less often (GOGC=400): a cold build of a neighbour took 216 s instead of 239 s on two cores (at
# GOGC=800, 220 s, its largest compile stayed under 1 GiB of resident set).
go_build() {
  GOTOOLCHAIN=local CGO_ENABLED=0 GOGC="${GOGC:-400}" go build -trimpath "$@"
}

require_tool() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' is not installed; $2"
}

# Installs the npm dependencies when node_modules is missing or older than the lockfile.
ensure_node_modules() {
  require_tool node "install Node.js >= 20.19"
  require_tool npm "install npm (it ships with Node.js)"
  local root="$1"
  if [ ! -d "$root/node_modules" ] || [ "$root/package-lock.json" -nt "$root/node_modules/.package-lock.json" ]; then
    log "installing npm dependencies (npm ci)"
    (cd "$root" && npm ci --no-audit --no-fund) >&2
  fi
}
