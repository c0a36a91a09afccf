#!/usr/bin/env bash
# Installs the pinned npm tools used for fixture generation and snarkjs interop tests
# (snarkjs, circom2, circomlib) into <repo>/.fixtures/node_modules.
#
# The versions are pinned by scripts/node/package.json + package-lock.json; the install is
# `npm ci` of exactly that lock file. When .fixtures/ already holds an install made from the
# same lock file (and the binaries are there), the script does nothing and returns at once.
#
# Usage: scripts/install-node-tools.sh [--force]
# Afterwards: .fixtures/node_modules/.bin/snarkjs, .fixtures/node_modules/.bin/circom2,
#             .fixtures/node_modules/circomlib/circuits/
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="$ROOT/scripts/node"
DEST="$ROOT/.fixtures"
STAMP="$DEST/.install-stamp"

log() { echo "[install-node-tools] $*"; }

command -v node >/dev/null || { log "ERROR: node is not on PATH (Node >= 18 needed)"; exit 1; }
command -v npm >/dev/null || { log "ERROR: npm is not on PATH"; exit 1; }

# Identity of the wanted install: the lock file's hash plus the node major version.
want="$(sha256sum "$SRC/package-lock.json" | cut -d' ' -f1) node-$(node -p 'process.versions.node.split(".")[0]')"

installed_ok() {
  [[ -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]] || return 1
  local bin
  for bin in snarkjs circom2; do
    [[ -x "$DEST/node_modules/.bin/$bin" ]] || return 1
  done
  [[ -f "$DEST/node_modules/circomlib/circuits/poseidon.circom" ]] || return 1
  # The installed versions must be the pinned ones.
  (cd "$DEST" && node -e '
    const lock = require("./package-lock.json").packages;
    for (const p of ["snarkjs", "circom2", "circomlib"]) {
      const got = require("./node_modules/" + p + "/package.json").version;
      const pinned = lock["node_modules/" + p].version;
      if (got !== pinned) { console.error(p + " " + got + " != " + pinned); process.exit(1); }
    }') || return 1
}

if [[ "${1:-}" != "--force" ]] && installed_ok; then
  log "already installed in $DEST (snarkjs $(node -p "require('$DEST/node_modules/snarkjs/package.json').version"), circom2 $(node -p "require('$DEST/node_modules/circom2/package.json').version"), circomlib $(node -p "require('$DEST/node_modules/circomlib/package.json').version")); nothing to do"
  exit 0
fi

log "installing pinned tools from $SRC into $DEST (npm ci)"
mkdir -p "$DEST"
rm -f "$STAMP"
cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
(cd "$DEST" && npm ci --no-audit --no-fund --loglevel=error)
echo "$want" > "$STAMP"
installed_ok || { log "ERROR: install finished but the check failed"; exit 1; }
log "installed: snarkjs $(node -p "require('$DEST/node_modules/snarkjs/package.json').version"), circom2 $(node -p "require('$DEST/node_modules/circom2/package.json').version"), circomlib $(node -p "require('$DEST/node_modules/circomlib/package.json').version")"
log "binaries: $DEST/node_modules/.bin/snarkjs, $DEST/node_modules/.bin/circom2"
