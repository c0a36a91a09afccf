#!/usr/bin/env bash
# Regenerates the witness-calculator fixtures under src/test/resources/witness/ from the circom
# sources there, with the reference tools from npm (circom2 = circom compiled to WebAssembly, and
# snarkjs). Each case folder holds <case>.circom and input.json; this script writes circuit.wasm,
# witness.json (the reference witness, decimal) and witness.wtns (the reference binary witness).
#
#   scripts/witness-fixtures.sh [TOOLS_DIR]     (default /tmp/witness-tools; outside the repository
#                                                so node_modules never lands in git)
#
# The folder name ends in the prime: <name>-bn128 or <name>-bls12381.
# Reference: `snarkjs wtns calculate` (circom_runtime), except for bus-* cases: snarkjs 0.7.6 does
# not qualify bus inputs ("p.x"), so those use the witness_calculator.js that circom itself emits.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
FIXTURES="$REPO/src/test/resources/witness"
TOOLS=${1:-/tmp/witness-tools}

mkdir -p "$TOOLS"
cd "$TOOLS"
if [ ! -x node_modules/.bin/snarkjs ] || [ ! -x node_modules/.bin/circom2 ]; then
    [ -f package.json ] || npm init -y >/dev/null
    npm install --no-audit --no-fund snarkjs@0.7.6 circom2@0.2.23 circomlib@2.0.5
fi
SNARKJS="$TOOLS/node_modules/.bin/snarkjs"

for dir in "$FIXTURES"/*/; do
    case=$(basename "$dir")
    name=${case%-*}
    prime=${case##*-}
    work="$TOOLS/build/$case"
    rm -rf "$work" && mkdir -p "$work"
    cp "$dir/$name.circom" "$work/"
    # circom2 runs under WASI and sees only the current directory tree: compile from $TOOLS.
    npx circom2 "build/$case/$name.circom" --wasm --prime "$prime" -l node_modules -o "build/$case" >/dev/null
    cp "$work/${name}_js/$name.wasm" "$dir/circuit.wasm"
    if [[ $name == bus ]]; then
        node "$work/${name}_js/generate_witness.js" "$dir/circuit.wasm" "$dir/input.json" "$dir/witness.wtns"
    else
        "$SNARKJS" wtns calculate "$dir/circuit.wasm" "$dir/input.json" "$dir/witness.wtns" >/dev/null
    fi
    "$SNARKJS" wtns export json "$dir/witness.wtns" "$dir/witness.json" >/dev/null
    echo "$case: $(stat -c %s "$dir/circuit.wasm") B wasm, $(grep -c '"' "$dir/witness.json") witness values"
done
