// Radix-2 number-theoretic transform over a prime field Fr, in place, decimation in time:
//   1. bit_reverse permutes the input (each pair swapped once, by the thread of the smaller index);
//   2. ntt_pass runs k consecutive butterfly stages on tiles of 2^k elements in shared memory; a transform of
//      2^L elements takes ⌈L/k⌉ passes (2 passes for 2^20 with k = 10), so the data crosses device memory
//      ⌈L/k⌉ + 1 times instead of L times.
// Twiddles are precomputed on the host: tw[i] = ω^i for i < n/2, with ω the n-th root of unity (ω⁻¹ for the
// inverse transform, whose 1/n factor is a separate scaling). Stage s (half-size m = 2^s) uses ω_{2m}^j =
// ω^(j·n/2m) = tw[j << (L−1−s)].
#pragma once
#include "../util/config.cuh"
#include "../util/index.cuh"

namespace proofline {
namespace ntt {

template <class Fr>
__device__ __forceinline__ void bit_reverse(Fr* x, uint32_t log_n) {
    const size_t i = global_thread();
    if (i >> log_n) return;
    const uint32_t r = proofline::bit_reverse(uint32_t(i), log_n);
    if (i < r) {
        Fr a = Fr::load(x, i);
        Fr b = Fr::load(x, r);
        b.store(x, i);
        a.store(x, r);
    }
}

/**
 * Stages s0 .. s0+k−1 of the transform. Block b owns the 2^k elements whose index bits outside [s0, s0+k)
 * equal those of b (low = b mod 2^s0 below, high = b >> s0 above): exactly the elements those stages mix.
 * Launch with 2^(k−1) threads per block and n / 2^k blocks.
 */
template <class Fr>
__device__ __forceinline__ void pass(Fr* x, const Fr* tw, uint32_t log_n, uint32_t s0, uint32_t k) {
    __shared__ Fr tile[1 << config::NTT_MAX_LOG_TILE];
    const uint32_t half_tile = 1u << (k - 1);
    const uint32_t t = threadIdx.x;
    const uint32_t low = blockIdx.x & ((1u << s0) - 1);
    const uint32_t high = blockIdx.x >> s0;
    auto global_index = [&](uint32_t local) -> size_t {
        return size_t(low) + (size_t(local) << s0) + (size_t(high) << (s0 + k));
    };
    Fr::load(x, global_index(t)).store(tile, t);
    Fr::load(x, global_index(t + half_tile)).store(tile, t + half_tile);
    __syncthreads();
    for (uint32_t ls = 0; ls < k; ls++) {
        const uint32_t half = 1u << ls;
        const uint32_t j = t & (half - 1);
        const uint32_t u = ((t >> ls) << (ls + 1)) + j;
        const uint32_t s = s0 + ls;
        // position of element u inside its butterfly group of size 2^(s+1), as a power of ω_{2^(s+1)}
        const size_t pos = size_t(low) + (size_t(j) << s0);
        const Fr w = Fr::load(tw, pos << (log_n - 1 - s));
        const Fr a = Fr::load(tile, u);
        const Fr b = Fr::load(tile, u + half) * w;
        (a + b).store(tile, u);
        (a - b).store(tile, u + half);
        __syncthreads();
    }
    Fr::load(tile, t).store(x, global_index(t));
    Fr::load(tile, t + half_tile).store(x, global_index(t + half_tile));
}

/** x[i] ·= lo[i mod 2^log_lo] · hi[i >> log_lo]: a geometric scaling c·g^i from two small tables
 *  (lo[j] = g^j, hi[j] = c·g^(j·2^log_lo)), e.g. the odd-coset shift ω_{2N}^i with the inverse's 1/N. */
template <class Fr>
__device__ __forceinline__ void scale_geometric(Fr* x, size_t n, const Fr* lo, const Fr* hi, uint32_t log_lo) {
    const size_t i = global_thread();
    if (i >= n) return;
    const Fr f = Fr::load(lo, i & ((size_t(1) << log_lo) - 1)) * Fr::load(hi, i >> log_lo);
    (Fr::load(x, i) * f).store(x, i);
}

/** a[i] = a[i]·b[i] − c[i]: the quotient's evaluations on the odd coset (DESIGN §7). */
template <class Fr>
__device__ __forceinline__ void h_from_abc(Fr* a, const Fr* b, const Fr* c, size_t n) {
    const size_t i = global_thread();
    if (i >= n) return;
    (Fr::load(a, i) * Fr::load(b, i) - Fr::load(c, i)).store(a, i);
}

}  // namespace ntt
}  // namespace proofline
