#!/usr/bin/env bash
# Builds native-cuda/proofline.cu into one fatbin. Called by Maven (profile "cuda") in generate-resources and
# by scripts/device-bundle.sh. Without nvcc on the PATH it prints a note and succeeds: the jar then carries no
# kernels and the GPU backend reports "no kernels were built".
#
#   native-cuda/build.sh <output.fatbin> [archs] [copy-to]
#   archs: space-separated compute capabilities with SASS, e.g. "80 89 90" (default); PTX is added for the
#          highest one so that newer GPUs can JIT it. Environment PROOFLINE_CUDA_ARCHS overrides the default.
#   copy-to: where to copy the fatbin afterwards (Maven: target/classes/native/proofline.fatbin).
#   Environment PROOFLINE_NVCC_FLAGS: extra nvcc flags for variants, e.g. -DPROOFLINE_MUL_PLAIN (the one-chain
#   Montgomery multiplication, ff/mont_t.cuh); build a variant into its own output path.
#
# Incremental: the fatbin is rebuilt only when a source under native-cuda/ is newer than it or the arch list
# changed (the list is remembered beside the output).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: build.sh <output.fatbin> [archs]}"
archs="${PROOFLINE_CUDA_ARCHS:-${2:-80 89 90}}"
copy_to="${3:-}"

copy() {
    if [[ -n "$copy_to" ]]; then
        mkdir -p "$(dirname "$copy_to")"
        cp "$out" "$copy_to"
    fi
}

if ! command -v nvcc >/dev/null 2>&1; then
    echo "[native-cuda] nvcc not found on PATH: no kernels were built (the CPU backend still works)"
    exit 0
fi

stamp="$out.archs"
if [[ -f "$out" && -f "$stamp" && "$(cat "$stamp")" == "$archs" ]] \
        && [[ -z "$(find "$here" -newer "$out" \( -name '*.cu' -o -name '*.cuh' \) -print -quit)" ]]; then
    echo "[native-cuda] $out is up to date ($archs)"
    copy
    exit 0
fi

gencode=()
highest=0
for a in $archs; do
    gencode+=("-gencode=arch=compute_$a,code=sm_$a")
    (( a > highest )) && highest=$a
done
gencode+=("-gencode=arch=compute_$highest,code=compute_$highest")

mkdir -p "$(dirname "$out")"
start=$(date +%s)
# --threads 0: one nvcc thread per target architecture, bounded by the machine's cores.
nvcc -std=c++17 -O3 --threads 0 ${PROOFLINE_NVCC_FLAGS:-} -fatbin "${gencode[@]}" -o "$out.tmp" "$here/proofline.cu"
mv "$out.tmp" "$out"
echo "$archs" > "$stamp"
echo "[native-cuda] built $out for sm_{${archs// /,}} + compute_$highest PTX in $(( $(date +%s) - start )) s ($(stat -c %s "$out") bytes)"
copy
