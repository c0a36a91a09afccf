// Montgomery multiplication by CIOS with the accumulator split in two: the products of the even limbs a[0], a[2], ...
// go to one array (E) and those of the odd limbs to another (O), so that each row is two independent carry chains
// instead of one chain through all 4N multiply-adds, and the next row's chains can start before this row's end.
//
// Why it works. A product a[j]·x occupies the word pair (j, j+1). For even j the pairs (0,1), (2,3), ... do not
// overlap, so one chain of mad.lo.cc / madc.hi.cc adds all of them into E without a second pass for the high halves;
// the same holds for odd j at (1,2), (3,4), ..., which O holds one word up: T = E + O·2^32 (+ s, below). The
// reduction factor m needs only the lowest word, E[0] (O starts one word up). After the row, T ≡ 0 mod 2^32 and the
// shift by one word swaps the roles: O is now word-aligned (the next E), E's words from index 2 on are one word up
// (the next O), and E[1] lands alone on word 0 — kept aside as s (with the carry out of word 0, so s ≤ 2^32) and
// added into the next row's m, carry, and finally the result. Nothing else crosses between the arrays until the end,
// where E + O·2^32 + s is summed once.
//
// Bounds (p < 2^(32N−1), a, b < p, so T < 2p before each row as in plain CIOS): within a row T < 2^33·p, hence
// O·2^32 ≤ T gives O < 2p < 2^(32N) — O's chains never carry out of word N−1 — and E < 2^(32N+32) fits N+1 words.
// s = 2^32 (e[1] = 2^32 − 1 with a carry) is possible but rare: the host test's random inputs do not reach it.
//
// The carry-chain primitives are PTX on the device and an exact emulation on the host, where a test
// (native-cuda/test/cios_split_test.cu, CiosSplitHostTest) compares the result with BigInteger.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define PROOFLINE_HD __host__ __device__ __forceinline__
#else
#define PROOFLINE_HD inline
#endif

namespace proofline {
namespace ff {

/** One carry chain's operations: the PTX carry flag on the device, an explicit flag on the host. */
struct carry_chain {
#if !defined(__CUDA_ARCH__)
    uint32_t cf = 0;
#endif

    PROOFLINE_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        uint64_t s = uint64_t(uint32_t(a * b)) + c;
        cf = uint32_t(s >> 32);
        return uint32_t(s);
#endif
    }

    PROOFLINE_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        uint64_t s = uint64_t(uint32_t(a * b)) + c + cf;
        cf = uint32_t(s >> 32);
        return uint32_t(s);
#endif
    }

    PROOFLINE_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        uint64_t s = ((uint64_t(a) * b) >> 32) + c + cf;
        cf = uint32_t(s >> 32);
        return uint32_t(s);
#endif
    }

    /** The chain's last step: no carry out (the bounds say there is none). */
    PROOFLINE_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
        return r;
#else
        return uint32_t(((uint64_t(a) * b) >> 32) + c + cf);
#endif
    }

    PROOFLINE_HD uint32_t add_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
        return r;
#else
        uint64_t s = uint64_t(a) + b;
        cf = uint32_t(s >> 32);
        return uint32_t(s);
#endif
    }

    PROOFLINE_HD uint32_t addc_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
        return r;
#else
        uint64_t s = uint64_t(a) + b + cf;
        cf = uint32_t(s >> 32);
        return uint32_t(s);
#endif
    }

    PROOFLINE_HD uint32_t addc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
        return r;
#else
        return uint32_t(uint64_t(a) + b + cf);
#endif
    }
};

/**
 * acc[k] += products x·y[k] of one parity into their word pairs, as one chain: even (First = 0) puts x·y[j] (j even)
 * at acc[j], acc[j+1] and ends with a carry into acc[N]; odd (First = 1) puts x·y[j] (j odd) at acc[j−1], acc[j]
 * and ends without a carry out.
 */
template <int N, int First>
PROOFLINE_HD void mad_parity(uint32_t* acc, uint32_t x, const uint32_t* y) {
    carry_chain ch;
    acc[0] = ch.mad_lo_cc(y[First], x, acc[0]);
#pragma unroll
    for (int j = First; j < N; j += 2) {
        const int at = j - First;
        if (j != First) acc[at] = ch.madc_lo_cc(y[j], x, acc[at]);
        if (First == 1 && j == N - 1) {
            acc[at + 1] = ch.madc_hi(y[j], x, acc[at + 1]);
        } else {
            acc[at + 1] = ch.madc_hi_cc(y[j], x, acc[at + 1]);
        }
    }
    if (First == 0) acc[N] = ch.addc(acc[N], 0);
}

/**
 * One row: T += x·a, m = (e[0] + s)·M0, T += m·p, T /= 2^32 — after which o is the word-aligned array (the next
 * row's e) and e, moved down two words, the array one word up (the next row's o); s takes e[1] and the carry out of
 * word 0.
 */
template <int N, class Params>
PROOFLINE_HD void split_row(uint32_t (&e)[N + 1], uint32_t (&o)[N + 1], uint32_t& s_lo, uint32_t& s_hi, uint32_t x,
                            const uint32_t (&a)[N], const uint32_t (&p)[N]) {
    mad_parity<N, 0>(e, x, a);
    mad_parity<N, 1>(o, x, a);
    const uint32_t m = (e[0] + s_lo) * Params::M0;
    mad_parity<N, 0>(e, m, p);
    mad_parity<N, 1>(o, m, p);
    // Word 0 is now e[0] + s ≡ 0 (mod 2^32); c is its carry into word 1 (0 or 1; s_hi = 1 only when s_lo = 0).
    carry_chain w0;
    (void)w0.add_cc(e[0], s_lo);
    const uint32_t c = w0.addc(s_hi, 0);
    carry_chain w1;
    s_lo = w1.add_cc(e[1], c);
    s_hi = w1.addc(0, 0);
#pragma unroll
    for (int k = 0; k + 2 <= N; k++) e[k] = e[k + 2];
    e[N - 1] = 0;
    e[N] = 0;
}

/**
 * t = a·b·2^(−32N) + (a multiple of p), t < 2p, as N words and a top word t_hi (0, as 2p < 2^(32N)); a, b < p,
 * p < 2^(32N−1), N even. p and M0 = −p⁻¹ mod 2^32 come from Params as compile-time constants. The caller subtracts
 * p once if needed.
 */
template <int N, class Params>
PROOFLINE_HD void mul_split(uint32_t (&t)[N], uint32_t& t_hi, const uint32_t (&a)[N], const uint32_t (&b)[N]) {
    static_assert(N % 2 == 0, "the split needs an even number of limbs");
    static_assert(Params::BITS <= 32 * N - 1, "the bounds need p < 2^(32N−1)");
    uint32_t p[N];
#pragma unroll
    for (int j = 0; j < N; j++) p[j] = Params::modulus(j);
    // x is E in even rows and O in odd rows; y the other way round.
    uint32_t x[N + 1], y[N + 1];
#pragma unroll
    for (int j = 0; j <= N; j++) x[j] = y[j] = 0;
    uint32_t s_lo = 0, s_hi = 0;  // s = s_lo + s_hi·2^32 ≤ 2^32, on word 0
#pragma unroll
    for (int i = 0; i < N; i++) {
        if ((i & 1) == 0) {
            split_row<N, Params>(x, y, s_lo, s_hi, b[i], a, p);
        } else {
            split_row<N, Params>(y, x, s_lo, s_hi, b[i], a, p);
        }
    }
    // After an even number of rows E is x and O is y: t = x + y·2^32 + s.
    carry_chain c1;
    t[0] = c1.add_cc(x[0], s_lo);
    t[1] = c1.addc_cc(x[1], s_hi);
#pragma unroll
    for (int k = 2; k < N; k++) t[k] = c1.addc_cc(x[k], 0);
    t_hi = c1.addc(x[N], 0);
    carry_chain c2;
    t[1] = c2.add_cc(t[1], y[0]);
#pragma unroll
    for (int k = 2; k < N; k++) t[k] = c2.addc_cc(t[k], y[k - 1]);
    t_hi = c2.addc(t_hi, y[N - 1]);
}

}  // namespace ff
}  // namespace proofline
