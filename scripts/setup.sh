#!/usr/bin/env bash
# Sets up Synapsis on a fresh Debian/Ubuntu machine (root or sudo): system packages, Node check,
# npm dependencies. Both README commands (demo and tests) call it; it is safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# Build tools for native modules (better-sqlite3, faiss-node), Debian's Chromium for UI tests,
# and FAISS for the faiss vector backend.
PACKAGES=(build-essential python3 pkg-config ca-certificates git libfaiss-dev liblapack-dev libblas-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
has_chromium() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; }
has_chromium || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq
  if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    # Ubuntu ships Chromium as a snap; the UI tests then report that Chromium is missing.
    rest=()
    for p in "${missing[@]}"; do [ "$p" != chromium ] && rest+=("$p"); done
    [ ${#rest[@]} -gt 0 ] && $SUDO apt-get install -y -qq --no-install-recommends "${rest[@]}"
    echo "setup: warning: Debian's chromium package could not be installed; browser tests will say so." >&2
  fi
fi

node_ok() { command -v node >/dev/null 2>&1 && node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>20||(a===20&&b>=19)?0:1)'; }
if ! node_ok; then
  echo "setup: Node.js >= 20.19 not found; trying the distribution's nodejs package"
  $SUDO apt-get install -y -qq nodejs npm || true
fi
if ! node_ok; then
  echo "setup: error: Synapsis needs Node.js >= 20.19 (found: $(node --version 2>/dev/null || echo none))." >&2
  echo "setup: install a current Node.js (e.g. from your distribution's backports) and run this again." >&2
  exit 1
fi

stamp=node_modules/.synapsis-setup
want="$(node -e 'const c=require("crypto");process.stdout.write(c.createHash("sha256").update(require("fs").readFileSync("package-lock.json")).digest("hex")+process.version)')"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && node -e 'require("better-sqlite3")(":memory:")' >/dev/null 2>&1; then
  echo "setup: npm dependencies are up to date"
else
  echo "setup: installing npm dependencies (native modules build from source, a few minutes)"
  # Electron's binary is fetched below, with a timeout, where the network allows it.
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund
  node -e 'require("better-sqlite3")(":memory:")' || { echo "setup: error: better-sqlite3 did not build (see npm output above)" >&2; exit 1; }
  printf '%s' "$want" > "$stamp"
fi
node scripts/build-faiss.mjs
# The desktop app's Electron binary where it can be downloaded (a few seconds to decide); web mode otherwise.
node scripts/electron-download.mjs
# The CLI as plain JavaScript: `synapsis` starts without compiling TypeScript (bin/synapsis.js runs
# the sources through tsx again as soon as one is newer than this build).
node scripts/build-cli.mjs
# The default models (the demo's embedder): from ../shared/models when it exists, else downloaded.
node scripts/setup-models.mjs
echo "setup: done"
