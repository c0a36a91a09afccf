#!/usr/bin/env bash
# A kernel change measured against its baselines in one device call (issue #21's method: same machine, same inputs,
# each side's kernels built there from its own native-cuda/). Runs on the GPU machine from the repository root, with
# the bundle of `scripts/lab/device-bundle.sh --kernels-there --base COMMIT [--base COMMIT2 ...]` carried as .device/ or
# packed as .device-pack/device.tar.xz (the 64 MiB limit; the pack command is printed by device-bundle.sh):
#
#   scripts/lab/device-kernels-ab.sh [bench gpu arguments]
#
#   1. builds the working tree's kernels (/tmp/kn) and each baseline's (/tmp/kb-COMMIT) side by side;
#   2. gpu-selftest of the new kernels (every check against the CPU) into $OUT/selftest.txt, and GPU proofs of the
#      committed fixtures into $OUT/proofs.tgz (verify them here: tar xzf, then scripts/lab/verify-gpu-proofs.sh proofs);
#   3. bench gpu with the same arguments and seed on each baseline, then on the new kernels, into
#      $OUT/bench-COMMIT.txt and $OUT/bench-new.txt (default arguments: --msm 20,22,24 --g2-msm 20 --ntt 20,24
#      --proofs 20 --repeats 11 --seed 11).
# Everything is also printed, time-stamped; without a baseline in the bundle step 3 runs the new kernels only.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/kernels-ab}"
mkdir -p "$out"
t0=$(date +%s)
say() { echo "$(date +%T) [+$(( $(date +%s) - t0 ))s] $*"; }
[[ -d .device ]] || xz -dc .device-pack/device.tar.xz | tar -xf - || { echo "no .device/ and no .device-pack/" >&2; exit 2; }
args=("$@")
(( ${#args[@]} > 0 )) || args=(--msm 20,22,24 --g2-msm 20 --ntt 20,24 --proofs 20 --repeats 11 --seed 11)
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version,memory.total --format=csv,noheader
bases=()
for dir in .device/bases/*/; do [[ -x "$dir/run.sh" ]] && bases+=("$(basename "$dir")"); done
say "new: the working tree; bases: ${bases[*]:-none}"

native-cuda/build.sh /tmp/kn 90 > /tmp/kn.log 2>&1 &
new_build=$!
base_builds=()
for commit in "${bases[@]}"; do
    .device/bases/"$commit"/native-cuda/build.sh /tmp/kb-"$commit" 90 > /tmp/kb-"$commit".log 2>&1 &
    base_builds+=($!)
done
for k in "${!bases[@]}"; do
    wait "${base_builds[$k]}" || { tail -20 /tmp/kb-"${bases[$k]}".log; exit 1; }
done
wait "$new_build" || { tail -20 /tmp/kn.log; exit 1; }
say "kernels built"

say "gpu-selftest (new)"
.device/run.sh gpu-selftest --kernels /tmp/kn 2>&1 | grep -v WARNING > "$out/selftest.txt"
tail -2 "$out/selftest.txt"
grep -E "^  \S+ +.* FAIL  " "$out/selftest.txt" | head -10

say "fixture proofs (new)"
rm -rf /tmp/proofs
.device/run.sh gpu-selftest --kernels /tmp/kn --fixtures src/test/resources/fixtures --fixtures-only \
    --proof-out /tmp/proofs 2>&1 | grep -v WARNING | tail -2
tar -C /tmp -czf "$out/proofs.tgz" proofs

for side in "${bases[@]}" new; do
    if [[ $side == new ]]; then run=.device/run.sh; kernels=/tmp/kn; else run=.device/bases/$side/run.sh; kernels=/tmp/kb-$side; fi
    say "bench gpu ($side) ${args[*]}"
    $run bench gpu --kernels "$kernels" "${args[@]}" 2>&1 | grep -v WARNING > "$out/bench-$side.txt"
    grep -E "^(kind|msm|ntt|proof)|rows measured" "$out/bench-$side.txt" | cut -c1-220
done
say done
