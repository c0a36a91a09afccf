#!/usr/bin/env bash
# Builds the CUDA kernels: every file of native-cuda/modules/ is one translation unit and becomes one fatbin, compiled
# in parallel (one nvcc per core), and modules.list names them (KernelModule loads every module it lists). A new
# kernel family goes into a new file there (or an existing one); nothing else needs to change. Called by Maven
# (profile "cuda") in generate-resources and by scripts/lab/device-bundle.sh. Without nvcc on the PATH it prints a note
# and succeeds: the jar then carries no kernels and the GPU backend reports "no kernels were built".
#
#   native-cuda/build.sh <output-dir> [archs] [copy-to-dir]
#   archs: space-separated compute capabilities with SASS, e.g. "90" (the default: Hopper) or "80 89 90"; PTX is
#          added for the highest one so that newer GPUs can JIT it. Environment PROOFLINE_CUDA_ARCHS overrides.
#   copy-to-dir: where to copy the fatbins and modules.list afterwards (Maven: target/classes/native).
#   Environment PROOFLINE_CUDA_JOBS: units compiled at once (default: the number of processors).
#
# Incremental: the fatbins are rebuilt only when a source under native-cuda/ is newer than them or the arch list
# changed (the list is remembered beside the output).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: build.sh <output-dir> [archs] [copy-to-dir]}"
archs="${PROOFLINE_CUDA_ARCHS:-${2:-90}}"
copy_to="${3:-}"
jobs="${PROOFLINE_CUDA_JOBS:-$(nproc)}"
units=()
for f in "$here"/modules/*.cu; do
    units+=("$(basename "$f" .cu)")
done

copy() {
    if [[ -n "$copy_to" ]]; then
        mkdir -p "$copy_to"
        rm -f "$copy_to"/*.fatbin
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
        && [[ "$(cat "$out/modules.list")" == "$(printf '%s.fatbin\n' "${units[@]}")" ]] \
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
rm -f "$out"/modules.list "$out"/*.fatbin "$out"/*.tmp
start=$(date +%s)
# One nvcc per unit, $jobs at a time, the slowest first, so that no long unit starts last: by the seconds each took
# last time (kept in <unit>.seconds), else by a guess from its name (the reductions are the slow ones to compile,
# G1's reduce_level the slowest: docs/gpu-notes.md). --threads 0 lets one nvcc compile its architectures in parallel
# when there are several.
order() {
    for u in "${units[@]}"; do
        guess=1
        case "$u" in *_reduce_level) guess=3 ;; *_reduce) guess=2 ;; esac
        echo "$(cat "$out/$u.seconds" 2>/dev/null || echo $(( guess * 100000 ))) $u"
    done | sort -k1,1rn -k2 | cut -d' ' -f2
}
export out here
order | xargs -P "$jobs" -I{} bash -c '
    u={}; t0=$(date +%s)
    nvcc -std=c++17 -O3 --threads 0 -fatbin "$@" -o "$out/$u.fatbin.tmp" "$here/modules/$u.cu"
    mv "$out/$u.fatbin.tmp" "$out/$u.fatbin"
    echo $(( $(date +%s) - t0 )) > "$out/$u.seconds"
    echo "[native-cuda]   $u: $(cat "$out/$u.seconds") s"' _ "${gencode[@]}"
printf '%s.fatbin\n' "${units[@]}" > "$out/modules.list"
echo "$archs" > "$stamp"
echo "[native-cuda] built ${#units[@]} modules in $out for sm_{${archs// /,}} + compute_$highest PTX in $(( $(date +%s) - start )) s ($(du -cb "$out"/*.fatbin | tail -1 | cut -f1) bytes)"
copy
