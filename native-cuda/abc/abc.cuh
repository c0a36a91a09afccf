// a = A·w, b = B·w, c = a∘b on the device, from the constraint rows resident beside the key (the host's
// io.proofline.snark.prover.ConstraintRows, uploaded once by DeviceRows) and the witness uploaded for the MSMs.
//
// Layout (compressed sparse rows by constraint): row r's A entries are [starts[2r], starts[2r+1]) and its B entries
// [starts[2r+1], starts[2r+2]); entry k is witness index signals[k] with value values[k] = coef·R² (the zkey's
// stored integer). The witness is canonical, so values[k]·w (Montgomery product) = (coef·w)·R: a, b and c come out
// in Montgomery form, in the arrays the inverse NTTs of prove start read (N elements each, row order).
//
// Most rows have a handful of entries and take one thread each (abc_rows); a row longer than a warp would hold its
// warp (and the kernel's tail) for hundreds of products, so the host lists those rows and abc_long_rows gives each a
// whole warp: the lanes take every 32nd entry and a shuffle tree adds the 32 partial sums. The two kernels write
// disjoint rows; together they write every row < n (rows without entries get zero), so the outputs need no clearing.
#pragma once
#include <cstdint>
#include "../util/config.cuh"
#include "../util/index.cuh"
#include "../ff/fields.cuh"
#include "../ff/mont_t.cuh"

namespace proofline {
namespace abc {

constexpr uint32_t WARP = 32;

/** Σ values[k]·w[signals[k]] over k = begin, begin + stride, … < end. */
template <class Fr>
__device__ __forceinline__ Fr dot(const uint32_t* signals, const Fr* values, const Fr* w, uint32_t begin,
                                  uint32_t end, uint32_t stride) {
    Fr acc = Fr::zero();
    for (uint32_t k = begin; k < end; k += stride) {
        acc += Fr::load(values, k) * Fr::load(w, signals[k]);
    }
    return acc;
}

/** The sum of x over the 32 lanes of a full warp, in lane 0 (other lanes hold partial sums). */
template <class Fr>
__device__ __forceinline__ Fr warp_sum(Fr x) {
#pragma unroll
    for (uint32_t offset = WARP / 2; offset > 0; offset >>= 1) {
        Fr other;
#pragma unroll
        for (int i = 0; i < Fr::N; i++) other.v[i] = __shfl_down_sync(0xffffffffu, x.v[i], offset);
        x += other;
    }
    return x;
}

/**
 * One thread per row r < n: a[r], b[r], c[r]. Rows with more than long_row entries (A and B together) are skipped:
 * abc_long_rows writes them.
 */
template <class Fr>
__device__ __forceinline__ void rows(const uint32_t* starts, const uint32_t* signals, const Fr* values, const Fr* w,
                                     uint32_t n, uint32_t long_row, Fr* a, Fr* b, Fr* c) {
    const size_t r = global_thread();
    if (r >= n) return;
    const uint32_t a_begin = starts[2 * r], b_begin = starts[2 * r + 1], end = starts[2 * r + 2];
    if (end - a_begin > long_row) return;
    const Fr x = dot(signals, values, w, a_begin, b_begin, 1);
    const Fr y = dot(signals, values, w, b_begin, end, 1);
    x.store(a, r);
    y.store(b, r);
    (x * y).store(c, r);
}

/** One warp per listed row long_rows[0..count): launch with whole warps per block. */
template <class Fr>
__device__ __forceinline__ void long_rows(const uint32_t* starts, const uint32_t* signals, const Fr* values,
                                          const Fr* w, const uint32_t* listed, uint32_t count, Fr* a, Fr* b, Fr* c) {
    const size_t warp = global_thread() / WARP;
    const uint32_t lane = threadIdx.x % WARP;
    if (warp >= count) return;  // the whole warp leaves together: the shuffles below see all 32 lanes
    const uint32_t r = listed[warp];
    const uint32_t a_begin = starts[2 * r], b_begin = starts[2 * r + 1], end = starts[2 * r + 2];
    const Fr x = warp_sum(dot(signals, values, w, a_begin + lane, b_begin, WARP));
    const Fr y = warp_sum(dot(signals, values, w, b_begin + lane, end, WARP));
    if (lane == 0) {
        x.store(a, r);
        y.store(b, r);
        (x * y).store(c, r);
    }
}

}  // namespace abc
}  // namespace proofline

/** <curve>_fr_abc and <curve>_fr_abc_long over the curve's Fr (both launched with ELEMENTWISE_THREADS). */
#define PROOFLINE_ABC_KERNELS(curve)                                                                             \
    extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)                         \
        curve##_fr_abc(const uint32_t* starts, const uint32_t* signals,                                          \
                       const proofline::ff::mont_t<proofline::ff::curve##_fr_params>* values,                    \
                       const proofline::ff::mont_t<proofline::ff::curve##_fr_params>* w, uint32_t n,             \
                       uint32_t long_row, proofline::ff::mont_t<proofline::ff::curve##_fr_params>* a,            \
                       proofline::ff::mont_t<proofline::ff::curve##_fr_params>* b,                               \
                       proofline::ff::mont_t<proofline::ff::curve##_fr_params>* c) {                             \
        proofline::abc::rows(starts, signals, values, w, n, long_row, a, b, c);                                  \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)                         \
        curve##_fr_abc_long(const uint32_t* starts, const uint32_t* signals,                                     \
                            const proofline::ff::mont_t<proofline::ff::curve##_fr_params>* values,               \
                            const proofline::ff::mont_t<proofline::ff::curve##_fr_params>* w,                    \
                            const uint32_t* listed, uint32_t count,                                              \
                            proofline::ff::mont_t<proofline::ff::curve##_fr_params>* a,                          \
                            proofline::ff::mont_t<proofline::ff::curve##_fr_params>* b,                          \
                            proofline::ff::mont_t<proofline::ff::curve##_fr_params>* c) {                        \
        proofline::abc::long_rows(starts, signals, values, w, listed, count, a, b, c);                           \
    }
