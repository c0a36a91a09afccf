#!/usr/bin/env bash
# Builds the real-circuit Groth16 fixtures under src/test/resources/fixtures/<curve>/<circuit>/
# with circom2 + snarkjs (installed by scripts/install-node-tools.sh), for bn128 and bls12381.
#
# Usage: scripts/fixtures.sh [curve/circuit ...]     (default: every curve × every circuit)
#
# Per fixture: compile (circom2 --r1cs --wasm --prime <curve>), Groth16 setup from a cached
# powers-of-tau, one deterministic beacon contribution, verification key, witness (.wtns and
# .json, checked against the r1cs), a reference proof, and `snarkjs groth16 verify` of it.
# Any failure stops the script with a non-zero status. The README of the fixtures folder is
# regenerated from every fixture's meta.json at the end.
#
# Reproducibility: the ptau (new + beacon) and the zkey (new + beacon) are deterministic, so a
# re-run rewrites identical .r1cs/.wasm/.zkey/verification_key.json/witness files; only
# proof.json differs between runs (Groth16 proofs are randomised by r, s).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.fixtures"
SNARKJS="$TOOLS/node_modules/.bin/snarkjs"
CIRCUIT_SRC="$ROOT/scripts/circuits"
OUT="$ROOT/src/test/resources/fixtures"

CURVES=(bn128 bls12381)
CIRCUITS=(poseidon_hash mimc_sponge merkle_poseidon range_compare)
POWER=12   # 2^12 = 4096 ≥ the largest domain (merkle_poseidon)
# Fixed, public beacon values: the setup is deterministic and therefore INSECURE (test use only).
PTAU_BEACON=0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20
ZKEY_BEACON=70726f6f666c696e652066697874757265732c206e6f7420666f72207573652e
BEACON_ITER_EXP=10

log() { echo "[fixtures $(date +%H:%M:%S)] $*"; }
die() { echo "[fixtures] ERROR: $*" >&2; exit 1; }
snarkjs() { "$SNARKJS" "$@"; }

"$ROOT/scripts/install-node-tools.sh"
# circomlib's Poseidon compiles the constants of all widths t = 2..17 into every .wasm (~1.8 MB);
# the fixture circuits include a copy trimmed to the widths they use (Poseidon(2), Poseidon(3)).
node "$ROOT/scripts/node/trim-poseidon.js" "$TOOLS/node_modules/circomlib/circuits" "$TOOLS/build/lib/poseidon" 3,4

ptau_for() {  # prepared phase-2 ptau for a curve, built once and cached under .fixtures/ptau
  local curve=$1 dir="$TOOLS/ptau"
  local final="$dir/${curve}_${POWER}_final.ptau"
  if [[ -s "$final" ]]; then echo "$final"; return; fi
  mkdir -p "$dir"
  log "powers of tau $curve 2^$POWER: new + beacon + prepare phase2 (slow, cached afterwards)" >&2
  snarkjs powersoftau new "$curve" "$POWER" "$dir/${curve}_${POWER}_0000.ptau" >&2
  snarkjs powersoftau beacon "$dir/${curve}_${POWER}_0000.ptau" "$dir/${curve}_${POWER}_0001.ptau" \
    "$PTAU_BEACON" "$BEACON_ITER_EXP" -n="proofline fixtures ptau beacon" >&2
  snarkjs powersoftau prepare phase2 "$dir/${curve}_${POWER}_0001.ptau" "$final.tmp" >&2
  mv "$final.tmp" "$final"
  rm -f "$dir/${curve}_${POWER}_0000.ptau" "$dir/${curve}_${POWER}_0001.ptau"
  echo "$final"
}

build_one() {
  local curve=$1 circuit=$2
  local src="$CIRCUIT_SRC/$circuit.circom" input="$CIRCUIT_SRC/$circuit.input.json"
  [[ -f "$src" && -f "$input" ]] || die "missing $src or $input"
  local build="$TOOLS/build/$curve/$circuit" dest="$OUT/$curve/$circuit"
  local ptau t0
  ptau="$(ptau_for "$curve")"
  t0=$SECONDS
  rm -rf "$build" "$dest"
  mkdir -p "$build" "$dest"

  log "$curve/$circuit: compile"
  # circom2 must run from the folder holding node_modules; includes resolve via -l: first the
  # trimmed Poseidon (build/lib/poseidon/), then circomlib (node_modules/circomlib/circuits/).
  (cd "$TOOLS" && npx --no-install circom2 "$src" --r1cs --wasm --prime "$curve" \
      -l build/lib -l node_modules -o "$build") | sed 's/^/    /'
  cp "$build/$circuit.r1cs" "$dest/circuit.r1cs"
  cp "$build/${circuit}_js/$circuit.wasm" "$dest/circuit.wasm"
  cp "$input" "$dest/input.json"

  log "$curve/$circuit: groth16 setup + beacon contribution"
  snarkjs groth16 setup "$dest/circuit.r1cs" "$ptau" "$build/circuit_0000.zkey" >/dev/null
  snarkjs zkey beacon "$build/circuit_0000.zkey" "$dest/circuit.zkey" "$ZKEY_BEACON" \
    "$BEACON_ITER_EXP" -n="proofline fixture beacon" >/dev/null
  snarkjs zkey verify "$dest/circuit.r1cs" "$ptau" "$dest/circuit.zkey" >"$build/zkey-verify.log" \
    || { cat "$build/zkey-verify.log"; die "$curve/$circuit: zkey verify failed"; }
  snarkjs zkey export verificationkey "$dest/circuit.zkey" "$dest/verification_key.json" >/dev/null

  log "$curve/$circuit: witness"
  snarkjs wtns calculate "$dest/circuit.wasm" "$dest/input.json" "$dest/witness.wtns"
  snarkjs wtns check "$dest/circuit.r1cs" "$dest/witness.wtns" >"$build/wtns-check.log" \
    || { cat "$build/wtns-check.log"; die "$curve/$circuit: witness does not satisfy the r1cs"; }
  snarkjs wtns export json "$dest/witness.wtns" "$dest/witness.json"

  log "$curve/$circuit: prove + verify"
  snarkjs groth16 prove "$dest/circuit.zkey" "$dest/witness.wtns" "$dest/proof.json" "$dest/public.json"
  local verdict
  verdict="$(snarkjs groth16 verify "$dest/verification_key.json" "$dest/public.json" "$dest/proof.json" 2>&1)" \
    || die "$curve/$circuit: snarkjs groth16 verify FAILED: $verdict"
  grep -q "OK!" <<<"$verdict" || die "$curve/$circuit: snarkjs groth16 verify did not say OK: $verdict"

  node "$ROOT/scripts/node/fixture-info.js" "$dest/circuit.r1cs" "$dest/circuit.zkey" "$dest/witness.wtns" \
    >"$dest/meta.json" || die "$curve/$circuit: header consistency check failed"
  log "$curve/$circuit: OK (verified) in $((SECONDS - t0)) s: $(node -p \
    "const m=require('$dest/meta.json'); \`constraints=\${m.nConstraints} vars=\${m.nVars} public=\${m.nPublic} domain=\${m.domainSize}\`")"
}

write_readme() {
  local readme="$OUT/README.md"
  local snarkjs_v circom2_v circomlib_v circom_v
  snarkjs_v=$(node -p "require('$TOOLS/node_modules/snarkjs/package.json').version")
  circom2_v=$(node -p "require('$TOOLS/node_modules/circom2/package.json').version")
  circomlib_v=$(node -p "require('$TOOLS/node_modules/circomlib/package.json').version")
  circom_v=$(cd "$TOOLS" && npx --no-install circom2 --version | sed -n 's/^circom compiler //p')
  {
    cat <<EOF
# Real-circuit Groth16 fixtures (generated — do not edit by hand)

Made by \`scripts/fixtures.sh\` (all fixtures; or \`scripts/fixtures.sh bn128/poseidon_hash ...\`)
with the npm tools pinned in \`scripts/node/package-lock.json\` and installed into \`.fixtures/\` by
\`scripts/install-node-tools.sh\`: snarkjs $snarkjs_v, circom2 $circom2_v (circom compiler
$circom_v compiled to WebAssembly), circomlib $circomlib_v, on Node $(node --version).
Circuit sources and inputs: \`scripts/circuits/<circuit>.circom\` and \`<circuit>.input.json\`.

Per \`<curve>/<circuit>/\` (curve \`bn128\` = BN254, \`bls12381\` = BLS12-381):

| file | made by |
|---|---|
| \`circuit.r1cs\`, \`circuit.wasm\` | \`circom2 <circuit>.circom --r1cs --wasm --prime <curve> -l build/lib -l node_modules\` (default \`--O1\`), run in \`.fixtures/\` |
| \`circuit.zkey\` | \`snarkjs groth16 setup\` from a powers of tau of power $POWER, then one contribution \`snarkjs zkey beacon\` (fixed beacon hash, 2^$BEACON_ITER_EXP iterations), checked by \`snarkjs zkey verify\` |
| \`verification_key.json\` | \`snarkjs zkey export verificationkey\` |
| \`input.json\` | copy of \`scripts/circuits/<circuit>.input.json\` |
| \`witness.wtns\` | \`snarkjs wtns calculate circuit.wasm input.json\`, checked by \`snarkjs wtns check\` |
| \`witness.json\` | \`snarkjs wtns export json\`: the expected witness \`w[0..nVars-1]\` as decimal strings (\`w[0] = 1\`) |
| \`proof.json\`, \`public.json\` | \`snarkjs groth16 prove circuit.zkey witness.wtns\` (reference proof), verified by \`snarkjs groth16 verify\` |
| \`meta.json\` | dimensions read from the r1cs/zkey/wtns headers by \`scripts/node/fixture-info.js\` (cross-checked: domainSize formula of DESIGN §7, nVars = nWires = witness length, nPublic = outputs + public inputs) |

The powers of tau (\`snarkjs powersoftau new <curve> $POWER\`, one \`powersoftau beacon\`, \`prepare
phase2\`) is cached in \`.fixtures/ptau/\`, not committed. Because both the ptau and the zkey
contribution are beacons with fixed, published values, **the setup is deterministic and
insecure** (anyone can recompute the toxic waste); the fixtures are for tests only. Re-running the
script reproduces every file byte for byte except \`proof.json\` (proofs are randomised).

The Poseidon circuits include circomlib's \`poseidon.circom\` unchanged but with
\`poseidon_constants.circom\` trimmed to the widths they use (t = 3, 4) by
\`scripts/node/trim-poseidon.js\`: circom compiles the constant functions for all widths
t = 2..17 into the witness-calculator wasm (1.8 MB per circuit otherwise). The r1cs, zkey and
witness are byte-identical to a build against the untrimmed circomlib (checked once for bn128);
only the wasm shrinks.

Public signals are ordered as circom does: outputs first, then public inputs.

## Circuits

| curve | circuit | what | nConstraints | nVars | nPublic (outputs + public inputs) | private inputs | domainSize |
|---|---|---|---:|---:|---:|---:|---:|
EOF
    local curve circuit meta what
    for curve in "${CURVES[@]}"; do
      for circuit in "${CIRCUITS[@]}"; do
        meta="$OUT/$curve/$circuit/meta.json"
        [[ -f "$meta" ]] || continue
        case $circuit in
          poseidon_hash)   what="circomlib Poseidon(3) of 3 private inputs; public: the hash" ;;
          mimc_sponge)     what="circomlib MiMCSponge(2, 220, 1) with public key k; public: hash, k" ;;
          merkle_poseidon) what="Merkle inclusion, depth 4, Poseidon(2) nodes; public: root (output), leaf" ;;
          range_compare)   what="Num2Bits(64) range checks, LessThan/GreaterEqThan(64), IsEqual, Num2Bits(16)/Bits2Num(16); 18 outputs, 2 public inputs" ;;
          *)               what="" ;;
        esac
        node -e '
          const m = require(process.argv[1]);
          console.log(`| ${process.argv[2]} | ${process.argv[3]} | ${process.argv[4]} | ${m.nConstraints} | ${m.nVars} | ${m.nPublic} (${m.nOutputs} + ${m.nPubInputs}) | ${m.nPrvInputs} | ${m.domainSize} |`);
        ' "$meta" "$curve" "$circuit" "$what"
      done
    done
    cat <<'EOF'

nConstraints includes the linear constraints that circom's default `--O1` keeps; circom writes
them as `0 · 0 = C` (empty A and B rows). For example poseidon_hash has 264 constraints with
A, B and C non-empty and 341 of the form `0 · 0 = C`. circomlib's Poseidon and MiMC round
constants and MDS matrices are defined for the BN254 scalar field; compiled with `--prime
bls12381` they are reduced modulo the BLS12-381 scalar field. The result is still a valid,
satisfiable circuit (the fixtures are for prover/verifier interop, not for a secure hash on
BLS12-381), but its hash values differ from circomlibjs's Poseidon/MiMC on that curve.
EOF
  } >"$readme"
  log "wrote $readme"
}

targets=()
if (($#)); then
  targets=("$@")
else
  for curve in "${CURVES[@]}"; do for circuit in "${CIRCUITS[@]}"; do targets+=("$curve/$circuit"); done; done
fi

start=$SECONDS
for t in "${targets[@]}"; do
  build_one "${t%%/*}" "${t#*/}"
done
write_readme
log "done: ${#targets[@]} fixture(s) in $((SECONDS - start)) s; committed size: $(du -sh "$OUT" | cut -f1)"
