// Radix-2 number-theoretic transform over a prime field Fr, decimation in time, natural order in and out:
// y = DIT stages 0 .. L−1 applied to x in bit-reversed order, for n = 2^L elements.
//
// pass runs k consecutive stages on tiles of 2^k elements; a transform takes ⌈L / NTT_MAX_LOG_TILE⌉ passes
// (2^20: two of 10 stages, 2^24: three of 8), so the data crosses device memory once per pass.
//   - Inside a tile each thread holds 4 elements in registers and runs two stages on them between shared-memory
//     exchanges (a radix-4 round built from 4 radix-2 butterflies: the same twiddles, so the same results as stage by
//     stage); an odd k starts with one radix-2 round (2 butterflies per thread). A tile of 2^10 is 5 rounds, 4
//     exchanges through shared memory and 7 barriers (stage by stage, one butterfly per thread: 10 rounds, 11).
//   - The bit reversal is folded into the first pass (s0 = 0): it reads its tile from the bit-reversed positions.
//     Those positions belong to other tiles, so the first pass must not write in place while other blocks read: with
//     several passes the host gives it a second buffer (first pass x → scratch, the others in place on scratch, the
//     last scratch → x); with one pass there is a single block, which has read all of x before any of its writes
//     (a barrier separates them, or one thread holds the whole tile). Every later pass reads and writes the same set
//     of positions per block, so in place is safe there.
// Twiddles are precomputed on the host: tw[i] = ω^i for i < n/2, with ω the n-th root of unity (ω⁻¹ for the
// inverse transform, whose 1/n factor its last pass multiplies in before the stores, sparing a launch that would read
// and write the vector once more). Stage s (half-size m = 2^s) uses ω_{2m}^j = ω^(j·n/2m) = tw[j << (L−1−s)].
#pragma once
#include "../util/config.cuh"
#include "../util/index.cuh"

namespace proofline {
namespace ntt {

namespace detail {

/**
 * Shared memory of one block: 2^NTT_MAX_LOG_TILE elements, stored as 16-byte chunks with chunk c of every element in
 * array c, so that 8 lanes reading 8 consecutive elements touch 8 distinct 16-byte bank groups (interleaved, an
 * element's 32 bytes would put lanes i and i+4 on the same banks).
 */
template <class Fr>
struct SharedTile {
    static constexpr int CHUNKS = Fr::N / 4;
    uint4 chunk[CHUNKS][1 << config::NTT_MAX_LOG_TILE];
};

/**
 * Slot of block-local element q: bits 0–2 XORed with (bit 3 → 2, bit 4 → 5), a permutation within each 32 elements.
 * A round's layout (round_index) puts a warp's lane bits 0–2 on element bits {2,3,4} (ls = 0), {0,3,4} (ls = 1),
 * {0,1,4} (ls = 2) or {0,1,2} (ls ≥ 3); on each of those sets this map is one-to-one onto bits 0–2, so the 8 lanes
 * of a 16-byte access phase hit 8 distinct bank groups in every round.
 */
__device__ __forceinline__ uint32_t slot(uint32_t q) {
    return q ^ (((q >> 4) & 1u) * 5u) ^ (((q >> 3) & 1u) << 1);
}

template <class Fr>
__device__ __forceinline__ void to_shared(SharedTile<Fr>& s, uint32_t q, const Fr& x) {
    const uint32_t p = slot(q);
#pragma unroll
    for (int c = 0; c < SharedTile<Fr>::CHUNKS; c++) {
        s.chunk[c][p] = make_uint4(x.v[4 * c], x.v[4 * c + 1], x.v[4 * c + 2], x.v[4 * c + 3]);
    }
}

/** Words 4c .. 4c + 3 of r from one 16-byte chunk. */
template <class Fr>
__device__ __forceinline__ void set_chunk(Fr& r, int c, const uint4& w) {
    r.v[4 * c] = w.x;
    r.v[4 * c + 1] = w.y;
    r.v[4 * c + 2] = w.z;
    r.v[4 * c + 3] = w.w;
}

template <class Fr>
__device__ __forceinline__ Fr from_shared(const SharedTile<Fr>& s, uint32_t q) {
    const uint32_t p = slot(q);
    Fr r;
#pragma unroll
    for (int c = 0; c < SharedTile<Fr>::CHUNKS; c++) set_chunk(r, c, s.chunk[c][p]);
    return r;
}

/** Twiddle i through the read-only data path: the table never changes during a transform. */
template <class Fr>
__device__ __forceinline__ Fr twiddle(const Fr* __restrict__ tw, size_t i) {
    const uint4* src = reinterpret_cast<const uint4*>(tw + i);
    Fr r;
#pragma unroll
    for (int c = 0; c < Fr::N / 4; c++) set_chunk(r, c, __ldg(src + c));
    return r;
}

/** (a, b) ← (a + w·b, a − w·b). */
template <class Fr>
__device__ __forceinline__ void butterfly(Fr& a, Fr& b, const Fr& w) {
    const Fr wb = b * w;
    b = a - wb;
    a = a + wb;
}

/** The butterfly with w = 1 (tw[0], the Montgomery one: b·w would return b unchanged). */
template <class Fr>
__device__ __forceinline__ void butterfly_one(Fr& a, Fr& b) {
    const Fr t = b;
    b = a - t;
    a = a + t;
}

/**
 * Tile-local index of element i (0..3) of thread t in the round whose first stage is ls: t with two zero bits
 * inserted at bit ls, holding i. Elements i and i^1 then differ in bit ls (stage ls), i and i^2 in bit ls+1.
 */
__device__ __forceinline__ uint32_t round_index(uint32_t t, uint32_t ls, uint32_t i) {
    return (t & ((1u << ls) - 1)) | ((t >> ls) << (ls + 2)) | (i << ls);
}

/** The three twiddles of a radix-4 round on stages s = s0+ls, s+1 (see pass). */
template <class Fr>
struct Radix4Twiddles {
    Fr w1, w2a, w2b;
};

template <class Fr>
__device__ __forceinline__ Radix4Twiddles<Fr> radix4_twiddles(const Fr* __restrict__ tw, uint32_t log_n,
                                                               size_t low, uint32_t s0, uint32_t ls, uint32_t t) {
    const uint32_t s = s0 + ls;
    const size_t p = low + (size_t(t & ((1u << ls) - 1)) << s0);  // P: position in stage s's group of 2^(s+1)
    const size_t i2 = p << (log_n - 2 - s);                      // ω_{2^(s+2)}^P
    return {twiddle(tw, 2 * i2), twiddle(tw, i2), twiddle(tw, i2 + (size_t(1) << (log_n - 2)))};
}

}  // namespace detail

/**
 * Stages s0 .. s0+k−1 of the transform, from `in` to `out` (the same buffer, except for the first pass of several:
 * see the header). Tile T owns the 2^k elements whose index bits outside [s0, s0+k) equal those of T (low =
 * T mod 2^s0 below, high = T >> s0 above): exactly the elements those stages mix; its element l (0 ≤ l < 2^k) is
 * x[low + l·2^s0 + high·2^(s0+k)].
 *
 * Launch with 2^(K−2) threads per block (1 when K < 2) and n / 2^K blocks, K = min(L, NTT_MAX_LOG_TILE): a block
 * runs 2^(K−k) tiles side by side, 2^(k−2) threads each (one thread when k = 1, holding the only pair).
 *
 * Round on stages ls, ls+1 (s = s0+ls), thread t of its tile: elements x_i at l = round_index(t, ls, i), j = t mod
 * 2^ls their position in stage ls's group, P = low + j·2^s0 the position in the global group of 2^(s+1). Stage ls
 * pairs (x0, x1), (x2, x3) with ω_{2^(s+1)}^P = tw[P << (L−1−s)]; stage ls+1 pairs (x0, x2) at position P with
 * ω_{2^(s+2)}^P = tw[P << (L−2−s)] and (x1, x3) at P + 2^s with tw[(P << (L−2−s)) + n/4]. These are the very
 * twiddles a stage-by-stage transform uses, so the results are identical. In the first pass (s0 = 0, low = 0) the
 * first round's twiddles are tw[0] = 1 but for (x1, x3): those butterflies skip the multiplication.
 *
 * scale: null, or one element every output is multiplied by before its store (the inverse's 1/n, on its last pass;
 * prove start passes null, having folded 1/n into its coset shift).
 */
template <class Fr>
__device__ __forceinline__ void pass(const Fr* in, Fr* out, const Fr* __restrict__ tw, uint32_t log_n, uint32_t s0,
                                     uint32_t k, const Fr* __restrict__ scale) {
    using namespace detail;
    __shared__ SharedTile<Fr> shared;
    const uint32_t tile_threads_log = k >= 2 ? k - 2 : 0;
    const uint32_t t = threadIdx.x & ((1u << tile_threads_log) - 1);  // thread within its tile
    const uint32_t sub = threadIdx.x >> tile_threads_log;              // tile within the block
    const size_t tile = size_t(blockIdx.x) * (blockDim.x >> tile_threads_log) + sub;
    const uint32_t base = sub << k;  // the tile's first element in shared memory
    const bool first = s0 == 0;
    // First pass: the blocks take the tiles in bit-reversed order, so that consecutive tiles read adjacent positions
    // (tile T reads x[rev_k(l)·2^(L−k) + rev_{L−k}(T)]) while each still writes its tile contiguously.
    const size_t low = first ? 0 : tile & ((size_t(1) << s0) - 1);
    const size_t high = first ? proofline::bit_reverse(uint32_t(tile), log_n - k) : tile >> s0;
    auto index = [&](uint32_t l) -> size_t { return low + (size_t(l) << s0) + (high << (s0 + k)); };
    auto source = [&](uint32_t l) -> size_t {
        return first ? (size_t(proofline::bit_reverse(l, k)) << (log_n - k)) + tile : index(l);
    };
    const uint32_t count = k >= 2 ? 4 : 2;  // k = 1 (n = 2): one pair

    Fr x[4];
    // Round 0: stage 0 alone when k is odd, else stages 0 and 1; layout round_index(t, 0, i) = 4t + i.
    if (first) {
#pragma unroll
        for (uint32_t i = 0; i < 4; i++) x[i] = i < count ? Fr::load(in, source(4 * t + i)) : Fr::zero();
        butterfly_one(x[0], x[1]);
        butterfly_one(x[2], x[3]);
        if (!(k & 1)) {
            const Fr w = twiddle(tw, size_t(1) << (log_n - 2));  // ω_4: (x1, x3) sits at position 1 of stage 1
            butterfly_one(x[0], x[2]);
            butterfly(x[1], x[3], w);
        }
    } else if (k & 1) {
        const Fr w = twiddle(tw, low << (log_n - 1 - s0));  // j = 0: one twiddle per tile
#pragma unroll
        for (uint32_t i = 0; i < 4; i++) x[i] = Fr::load(in, source(4 * t + i));
        butterfly(x[0], x[1], w);
        butterfly(x[2], x[3], w);
    } else {
        const Radix4Twiddles<Fr> w = radix4_twiddles(tw, log_n, low, s0, 0, t);
#pragma unroll
        for (uint32_t i = 0; i < 4; i++) x[i] = Fr::load(in, source(4 * t + i));
        butterfly(x[0], x[1], w.w1);
        butterfly(x[2], x[3], w.w1);
        butterfly(x[0], x[2], w.w2a);
        butterfly(x[1], x[3], w.w2b);
    }
    uint32_t prev = 0;  // the layout x is in
    for (uint32_t ls = 2 - (k & 1); ls < k; ls += 2) {
        // The twiddles first: their loads do not depend on the exchange and run during its barriers.
        const Radix4Twiddles<Fr> w = radix4_twiddles(tw, log_n, low, s0, ls, t);
        if (ls >= 3) __syncthreads();  // every thread has read the previous exchange's slots
#pragma unroll
        for (uint32_t i = 0; i < 4; i++) to_shared(shared, base + round_index(t, prev, i), x[i]);
        __syncthreads();
#pragma unroll
        for (uint32_t i = 0; i < 4; i++) x[i] = from_shared<Fr>(shared, base + round_index(t, ls, i));
        butterfly(x[0], x[1], w.w1);
        butterfly(x[2], x[3], w.w1);
        butterfly(x[0], x[2], w.w2a);
        butterfly(x[1], x[3], w.w2b);
        prev = ls;
    }
    if (scale != nullptr) {
        const Fr f = twiddle(scale, 0);  // through the read-only path, as the twiddles
#pragma unroll
        for (uint32_t i = 0; i < 4; i++) x[i] = x[i] * f;
    }
#pragma unroll
    for (uint32_t i = 0; i < 4; i++) {
        if (i < count) x[i].store(out, index(round_index(t, prev, i)));
    }
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
