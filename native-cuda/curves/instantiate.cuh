// Instantiates the field, NTT, a/b/c and MSM (G1 and G2) templates for one curve as extern "C" kernels named
// <curve>_<kernel>, which the host looks up by name in the loaded modules (cuModuleGetFunction). The files of
// native-cuda/modules/ invoke these macros, a few per file, so that the kernels compile as several translation units
// in parallel (native-cuda/build.sh).
#pragma once
#include "../ff/fields.cuh"
#include "../ff/mont_t.cuh"
#include "../ff/fq2_t.cuh"
#include "../ec/xyzz_t.cuh"
#include "../ntt/ntt.cuh"
#include "../msm/pippenger.cuh"

namespace proofline {

/** Element-wise self-test: out[5i .. 5i+4] = a·b, a + b, a − b, a², −a. */
template <class F>
__device__ __forceinline__ void field_selftest(const F* a, const F* b, F* out, size_t n) {
    const size_t i = global_thread();
    if (i >= n) return;
    const F x = F::load(a, i), y = F::load(b, i);
    (x * y).store(out, 5 * i);
    (x + y).store(out, 5 * i + 1);
    (x - y).store(out, 5 * i + 2);
    x.sqr().store(out, 5 * i + 3);
    x.neg().store(out, 5 * i + 4);
}

/** Throughput probe: two independent chains of `iters` multiplications per element (x ← x·y, y ← y·x'). */
template <class F>
__device__ __forceinline__ void field_mul_chain(F* x, size_t n, uint32_t iters) {
    const size_t i = global_thread();
    if (i >= n) return;
    F a = F::load(x, i), b = F::load(x, (i + 1) % n), c = F::load(x, (i + 2) % n);
    for (uint32_t k = 0; k < iters; k++) {
        a = a * c;
        b = b * c;
    }
    (a + b).store(x, i);
}

template <class F>
__device__ __forceinline__ void field_from_montgomery(F* x, size_t n) {
    const size_t i = global_thread();
    if (i < n) F::load(x, i).from_montgomery().store(x, i);
}

}  // namespace proofline

#define PROOFLINE_FIELD_KERNELS(prefix, F)                                                                      \
    extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)                         \
        prefix##_selftest(const F* a, const F* b, F* out, size_t n) {                                            \
        proofline::field_selftest(a, b, out, n);                                                                 \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)                         \
        prefix##_mul_chain(F* x, size_t n, uint32_t iters) {                                                     \
        proofline::field_mul_chain(x, n, iters);                                                                 \
    }

/** Level 0 of the bucket sums of one group (G1 over Fq, G2 over Fq2): <prefix>_accumulate_tasks. */
#define PROOFLINE_ACCUMULATE_KERNELS(prefix, Affine, Xyzz)                                                      \
    extern "C" __global__ void __launch_bounds__(proofline::config::POINT_THREADS)                               \
        prefix##_accumulate_tasks(const Affine* points, const uint32_t* pairs, const uint32_t* offsets,          \
                                  const uint32_t* counts, const uint32_t* task_offsets,                          \
                                  const uint32_t* task_counts, const uint32_t* task_bucket,                      \
                                  const uint32_t* task_order, uint32_t buckets, uint32_t per_task,               \
                                  Xyzz* bucket_sums, Xyzz* partials, uint32_t* partial_keys) {                   \
        proofline::msm::accumulate_tasks(points, pairs, offsets, counts, task_offsets, task_counts, task_bucket, \
                                         task_order, buckets, per_task, bucket_sums, partials, partial_keys);    \
    }

/**
 * The bucket reduction of one group's MSM, <prefix>_reduce_level: for G1 the slowest kernel to compile, so a unit of
 * its own.
 */
#define PROOFLINE_REDUCE_LEVEL_KERNELS(prefix, Affine, Xyzz)                                                    \
    extern "C" __global__ void __launch_bounds__(proofline::config::POINT_THREADS)                               \
        prefix##_reduce_level(const Xyzz* s_in, const Xyzz* u_in, uint32_t windows, uint32_t entries,            \
                              uint32_t len, uint32_t first, Xyzz* s_out, Xyzz* u_out) {                          \
        proofline::msm::reduce_level(s_in, u_in, windows, entries, len, first, s_out, u_out);                    \
    }

/** The partial sums of one group's MSM: <prefix>_combine_heads, _sum_groups, _ones. */
#define PROOFLINE_COMBINE_KERNELS(prefix, Affine, Xyzz)                                                         \
    extern "C" __global__ void __launch_bounds__(proofline::config::POINT_THREADS)                               \
        prefix##_combine_heads(const Xyzz* in_sums, const uint32_t* in_keys, const uint32_t* offsets,            \
                               const uint32_t* counts, uint32_t buckets, uint64_t span, uint32_t chunk,          \
                               Xyzz* bucket_sums, Xyzz* out_sums, uint32_t* out_keys) {                          \
        proofline::msm::combine_heads(in_sums, in_keys, offsets, counts, buckets, span, chunk, bucket_sums,      \
                                      out_sums, out_keys);                                                       \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(proofline::config::POINT_THREADS)                               \
        prefix##_sum_groups(const Xyzz* in, size_t count, uint32_t group, Xyzz* out) {                           \
        proofline::msm::sum_groups(in, count, group, out);                                                       \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(proofline::config::POINT_THREADS)                               \
        prefix##_ones(const Affine* points, const uint32_t* scalars, size_t n, uint32_t per_thread, Xyzz* out) { \
        proofline::msm::ones(points, scalars, n, per_thread, out);                                               \
    }

/**
 * The types of one curve: <curve>_fq_t, _fr_t, _affine_t, _xyzz_t; G2's over an inlined Fq2 multiplication
 * (_fq2i_t, _g2i_affine_t, _g2i_xyzz_t: the bucket accumulation and the Fq2 self-test) and over a called one
 * (_fq2_t, _g2_affine_t, _g2_xyzz_t: the other G2 kernels), passing its operands as Fq2Call says (ff/fq2_t.cuh says
 * why). All have one memory layout, so their kernels share buffers.
 */
#define PROOFLINE_CURVE_TYPES_WITH(curve, Fq2Call)                                                                \
    using curve##_fq_t = proofline::ff::mont_t<proofline::ff::curve##_fq_params>;                                \
    using curve##_fr_t = proofline::ff::mont_t<proofline::ff::curve##_fr_params>;                                \
    using curve##_affine_t = proofline::ec::affine_t<curve##_fq_t>;                                              \
    using curve##_xyzz_t = proofline::ec::xyzz_t<curve##_fq_t>;                                                  \
    using curve##_fq2_t = proofline::ff::fq2_t<curve##_fq_t, proofline::ff::fq2_mul::Fq2Call>;                   \
    using curve##_g2_affine_t = proofline::ec::affine_t<curve##_fq2_t>;                                          \
    using curve##_g2_xyzz_t = proofline::ec::xyzz_t<curve##_fq2_t>;                                              \
    using curve##_fq2i_t = proofline::ff::fq2_t<curve##_fq_t, proofline::ff::fq2_mul::inline_>;                  \
    using curve##_g2i_affine_t = proofline::ec::affine_t<curve##_fq2i_t>;                                        \
    using curve##_g2i_xyzz_t = proofline::ec::xyzz_t<curve##_fq2i_t>;

/** The measured best call of each curve (docs/lab/gpu-variants.md, variant 13). */
#define PROOFLINE_CURVE_TYPES_bn254 PROOFLINE_CURVE_TYPES_WITH(bn254, call_by_value)
#define PROOFLINE_CURVE_TYPES_bls12_381 PROOFLINE_CURVE_TYPES_WITH(bls12_381, call_by_reference)
#define PROOFLINE_CURVE_TYPES(curve) PROOFLINE_CURVE_TYPES_##curve

/** One curve's field kernels (self-tests of Fq, Fr and Fq2, Fr conversions) and NTT: <curve>_fq_*, <curve>_fr_*,
 *  <curve>_fq2_*. */
#define PROOFLINE_FIELD_NTT_KERNELS(curve)                                                                       \
    PROOFLINE_FIELD_KERNELS(curve##_fq, curve##_fq_t)                                                            \
    PROOFLINE_FIELD_KERNELS(curve##_fr, curve##_fr_t)                                                            \
    PROOFLINE_FIELD_KERNELS(curve##_fq2, curve##_fq2i_t)                                                         \
    extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)                         \
        curve##_fr_from_montgomery(curve##_fr_t* x, size_t n) {                                                  \
        proofline::field_from_montgomery(x, n);                                                                  \
    }                                                                                                            \
    /* 4 blocks per SM (64 registers, ≤ 36 B spilled) beat 3 (75 registers): BN254 2–6 % on an H100, BLS ≈ 0 */    \
    extern "C" __global__ void __launch_bounds__(1 << (proofline::config::NTT_MAX_LOG_TILE - 2), 4)              \
        curve##_fr_ntt_pass(const curve##_fr_t* in, curve##_fr_t* out, const curve##_fr_t* __restrict__ tw,      \
                            uint32_t log_n, uint32_t s0, uint32_t k, const curve##_fr_t* __restrict__ scale) {   \
        proofline::ntt::pass(in, out, tw, log_n, s0, k, scale);                                                  \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)                         \
        curve##_fr_scale_geometric(curve##_fr_t* x, size_t n, const curve##_fr_t* lo, const curve##_fr_t* hi,    \
                                   uint32_t log_lo) {                                                            \
        proofline::ntt::scale_geometric(x, n, lo, hi, log_lo);                                                   \
    }                                                                                                            \
    extern "C" __global__ void __launch_bounds__(proofline::config::ELEMENTWISE_THREADS)                         \
        curve##_fr_h_from_abc(curve##_fr_t* a, const curve##_fr_t* b, const curve##_fr_t* c, size_t n) {         \
        proofline::ntt::h_from_abc(a, b, c, n);                                                                  \
    }
