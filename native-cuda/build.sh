#!/usr/bin/env bash
# Builds the CUDA kernels into fatbins and the modules.list that names them (KernelModule loads every module it
# lists). Called by Maven (profile "cuda") in generate-resources and by scripts/device-bundle.sh. Without nvcc on
# the PATH it prints a note and succeeds: the jar then carries no kernels and the GPU backend reports "no kernels
# were built".
#
#   native-cuda/build.sh <output-dir> [archs] [copy-to-dir]
#   archs: space-separated compute capabilities with SASS, e.g. "80 89 90" (default); PTX is added for the
#          highest one so that newer GPUs can JIT it. Environment PROOFLINE_CUDA_ARCHS overrides the default.
#   copy-to-dir: where to copy the fatbins and modules.list afterwards (Maven: target/classes/native).
#
# Incremental: the fatbins are rebuilt only when a source under native-cuda/ is newer than them or the arch list
# changed (the list is remembered beside the output).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: build.sh <output-dir> [archs] [copy-to-dir]}"
archs="${PROOFLINE_CUDA_ARCHS:-${2:-80 89 90}}"
copy_to="${3:-}"
# The translation units, one fatbin each: proofline.cu (fields, NTT, MSM) and abc.cu (a/b/c from constraint rows).
units=(proofline abc)

copy() {
    if [[ -n "$copy_to" ]]; then
        mkdir -p "$copy_to"
        for u in "${units[@]}"; do
            cp "$out/$u.fatbin" "$copy_to/"
        done
        cp "$out/modules.list" "$copy_to/"
    fi
}

if ! command -v nvcc >/dev/null 2>&1; then
    echo "[native-cuda] nvcc not found on PATH: no kernels were built (the CPU backend still works)"
    exit 0
fi

stamp="$out/archs"
if [[ -f "$out/modules.list" && -f "$stamp" && "$(cat "$stamp")" == "$archs" ]] \
        && [[ -z "$(find "$here" -newer "$out/modules.list" \( -name '*.cu' -o -name '*.cuh' \) -print -quit)" ]]; then
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

mkdir -p "$out"
rm -f "$out/modules.list"
start=$(date +%s)
for u in "${units[@]}"; do
    # --threads 0: one nvcc thread per target architecture, bounded by the machine's cores.
    nvcc -std=c++17 -O3 --threads 0 -fatbin "${gencode[@]}" -o "$out/$u.fatbin.tmp" "$here/$u.cu"
    mv "$out/$u.fatbin.tmp" "$out/$u.fatbin"
done
printf '%s.fatbin\n' "${units[@]}" > "$out/modules.list"
echo "$archs" > "$stamp"
echo "[native-cuda] built ${#units[@]} module(s) in $out for sm_{${archs// /,}} + compute_$highest PTX in $(( $(date +%s) - start )) s ($(du -cb "$out"/*.fatbin | tail -1 | cut -f1) bytes)"
copy
