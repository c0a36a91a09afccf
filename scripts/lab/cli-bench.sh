#!/usr/bin/env bash
# The one-shot CLI against snarkjs on a circom circuit of 52,320 constraints (2^16 domain), each run a cold process,
# as a user's script calls a prover once per proof (issue #22; docs/BENCHMARKS.md, "One-shot CLI").
#
# Usage: scripts/lab/cli-bench.sh fixture                  build .fixtures/bench/bn128/poseidon_chain/ once (cached)
#        scripts/lab/cli-bench.sh run [RUNS] [VARIANT ...]  RUNS rounds (default 5); each round runs every variant once,
#                                                       in turn, so that load changes hit all of them alike
# A variant is a name and a command, NAME=COMMAND; by default:
#   snarkjs   .fixtures/node_modules/.bin/snarkjs groth16 prove <zkey> <wtns> <proof> <public>
#   proofline bin/proofline prove <zkey> <wtns> <proof> <public>
# Every proof is checked with `snarkjs groth16 verify`. Prints one line per run (wall and CPU seconds, and a
# `prove --timings` split where the variant asks for one) and, per variant, the median, min and max wall time, the
# median CPU time and the ratios of snarkjs's medians to its medians (the first variant is the peer). Needs
# bin/proofline's jar (mvn package).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="$ROOT/.fixtures"
SNARKJS="$TOOLS/node_modules/.bin/snarkjs"
DIR="$TOOLS/bench/bn128/poseidon_chain"
POWER=16

log() { echo "[cli-bench $(date +%H:%M:%S)] $*" >&2; }
die() { echo "[cli-bench] ERROR: $*" >&2; exit 1; }

fixture() {
  if [[ -s "$DIR/circuit.zkey" && -s "$DIR/witness.wtns" && -s "$DIR/verification_key.json" ]]; then
    log "fixture cached in $DIR"
    return
  fi
  "$ROOT/scripts/install-node-tools.sh" >&2
  node "$ROOT/scripts/node/trim-poseidon.js" "$TOOLS/node_modules/circomlib/circuits" "$TOOLS/build/lib/poseidon" 3,4 >&2
  local build="$TOOLS/build/bench" ptau="$TOOLS/ptau/bn128_${POWER}_bench.ptau"
  mkdir -p "$build" "$DIR" "$TOOLS/ptau"
  log "compile poseidon_chain (--O2)"
  (cd "$TOOLS" && npx --no-install circom2 "$ROOT/scripts/circuits/poseidon_chain.circom" --r1cs --wasm --O2 \
      --prime bn128 -l build/lib -l node_modules -o "$build") >&2
  cp "$build/poseidon_chain.r1cs" "$DIR/circuit.r1cs"
  cp "$build/poseidon_chain_js/poseidon_chain.wasm" "$DIR/circuit.wasm"
  cp "$ROOT/scripts/circuits/poseidon_chain.input.json" "$DIR/input.json"
  if [[ ! -s "$ptau" ]]; then
    # No contribution: a benchmark needs a key of the right shape, not a secure one (INSECURE setup).
    log "powers of tau bn128 2^$POWER (minutes; cached afterwards)"
    "$SNARKJS" powersoftau new bn128 "$POWER" "$build/pot_0000.ptau" >&2
    "$SNARKJS" powersoftau prepare phase2 "$build/pot_0000.ptau" "$ptau.tmp" >&2
    mv "$ptau.tmp" "$ptau"
    rm -f "$build/pot_0000.ptau"
  fi
  log "groth16 setup"
  "$SNARKJS" groth16 setup "$DIR/circuit.r1cs" "$ptau" "$DIR/circuit.zkey" >&2
  "$SNARKJS" zkey export verificationkey "$DIR/circuit.zkey" "$DIR/verification_key.json" >&2
  "$SNARKJS" wtns calculate "$DIR/circuit.wasm" "$DIR/input.json" "$DIR/witness.wtns" >&2
  "$SNARKJS" r1cs info "$DIR/circuit.r1cs" >&2
  log "fixture ready in $DIR"
}

# "WALL CPU" seconds of one command (CPU = user + system, of it and its children: less sensitive than the wall time
# to other processes on a shared machine); its output goes to $work/NAME.log, or it fails with the log's tail.
timed() {
  local name=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$work/$name.time" "$@" >"$work/$name.log" 2>&1 \
    || { tail -5 "$work/$name.log" >&2; die "$name failed: $*"; }
  awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$work/$name.time"
}

# "MEDIAN MIN MAX" of the numbers given.
stats() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2; print m, a[1], a[NR]}'
}

run() {
  local runs=${1:-5}; shift || true
  [[ -s "$DIR/circuit.zkey" ]] || die "no fixture: run scripts/lab/cli-bench.sh fixture first"
  work="$(mktemp -d)"
  local variants=("$@")
  if ((${#variants[@]} == 0)); then
    variants=("snarkjs=$SNARKJS groth16 prove" "proofline=$ROOT/bin/proofline prove")
  fi
  local names=() cmds=() v
  for v in "${variants[@]}"; do names+=("${v%%=*}"); cmds+=("${v#*=}"); done
  log "$runs rounds of ${names[*]} on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  declare -A times cpus
  local r i wall cpu
  for ((r = 1; r <= runs; r++)); do
    for i in "${!names[@]}"; do
      # shellcheck disable=SC2086
      read -r wall cpu < <(timed "${names[$i]}" ${cmds[$i]} "$DIR/circuit.zkey" "$DIR/witness.wtns" \
        "$work/proof.json" "$work/public.json")
      "$SNARKJS" groth16 verify "$DIR/verification_key.json" "$work/public.json" "$work/proof.json" 2>&1 \
        | grep -q "OK!" || die "${names[$i]}: snarkjs groth16 verify rejected the proof"
      rm -f "$work/proof.json" "$work/public.json"
      times[${names[$i]}]+="$wall "
      cpus[${names[$i]}]+="$cpu "
      printf 'round %d %-12s %6.2f s wall %6.2f s cpu  (load %s)\n' "$r" "${names[$i]}" "$wall" "$cpu" \
        "$(cut -d' ' -f1 /proc/loadavg)"
      grep -h -e '^timings:' -e '^backend ' "$work/${names[$i]}.log" | sed 's/^/    /' || true
    done
  done
  local peer="" peer_cpu="" median min max cmed
  for i in "${!names[@]}"; do
    # shellcheck disable=SC2086
    read -r median min max < <(stats ${times[${names[$i]}]})
    # shellcheck disable=SC2086
    read -r cmed _ _ < <(stats ${cpus[${names[$i]}]})
    [[ -z "$peer" ]] && peer=$median && peer_cpu=$cmed
    printf 'median %-12s %6.2f s wall (min %.2f, max %.2f, %d runs), %6.2f s cpu; snarkjs/this %.2fx wall, %.2fx cpu\n' \
      "${names[$i]}" "$median" "$min" "$max" "$runs" "$cmed" "$(echo "$peer / $median" | bc -l)" \
      "$(echo "$peer_cpu / $cmed" | bc -l)"
  done
  rm -rf "$work"
}

case "${1:-}" in
  fixture) fixture ;;
  run) shift; run "$@" ;;
  *) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
