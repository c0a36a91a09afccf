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

    PROOFLINE_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
        return r;
#else
        uint64_t d = uint64_t(a) - b;
        cf = uint32_t(d >> 63);  // the borrow
        return uint32_t(d);
#endif
    }

    PROOFLINE_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
        return r;
#else
        uint64_t d = uint64_t(a) - b - cf;
        cf = uint32_t(d >> 63);
        return uint32_t(d);
#endif
    }

    /** The chain's last step of a subtraction: a − b − borrow, no borrow out. */
    PROOFLINE_HD uint32_t subc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
        uint32_t r;
        asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
        return r;
#else
        return uint32_t(uint64_t(a) - b - cf);
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

/** split_row without the product: T += m·p, T /= 2^32 (redc_wide's rows). */
template <int N, class Params>
PROOFLINE_HD void split_reduce_row(uint32_t (&e)[N + 1], uint32_t (&o)[N + 1], uint32_t& s_lo, uint32_t& s_hi,
                                   const uint32_t (&p)[N]) {
    const uint32_t m = (e[0] + s_lo) * Params::M0;
    mad_parity<N, 0>(e, m, p);
    mad_parity<N, 1>(o, m, p);
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

// ---- lazy reduction: full-width products and one reduction for several of them -------------------------------------

/**
 * t = a·b at full width (2N words, no reduction), a, b < 2^(32N): per row i the products a[j]·b[i] of even j go into
 * E and those of odd j into O (one word down), as in mul_split, so each row is two independent chains; t = E + O·2^32.
 * Row i writes E[i .. i+N] and O[i .. i+N−1], whose top words no earlier row touched, so neither chain can carry out.
 */
template <int N>
PROOFLINE_HD void mul_wide(uint32_t (&t)[2 * N], const uint32_t (&a)[N], const uint32_t (&b)[N]) {
    uint32_t e[2 * N], o[2 * N];
#pragma unroll
    for (int k = 0; k < 2 * N; k++) e[k] = o[k] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        mad_parity<N, 0>(e + i, b[i], a);
        mad_parity<N, 1>(o + i, b[i], a);
    }
    carry_chain c;
    t[0] = e[0];
    t[1] = c.add_cc(e[1], o[0]);
#pragma unroll
    for (int k = 2; k < 2 * N - 1; k++) t[k] = c.addc_cc(e[k], o[k - 1]);
    t[2 * N - 1] = c.addc(e[2 * N - 1], o[2 * N - 2]);
}

/**
 * Montgomery reduction of a full-width t < p·2^(32N): r = t·2^(−32N) mod p plus a multiple of p, r < 2p (N words and
 * a top word r_hi, 0 in fact). The low half L runs through N rows of split_row's reduction (T += m·p, T /= 2^32) with
 * no product to add, giving (L + M·p)/2^(32N) ≤ p; the high half H = ⌊t/2^(32N)⌋ < p is added at the end, so r < 2p.
 * Within the rows T < 2^(32N) + 2^32·p, so O < 2^(32N) and E fits N + 1 words, as mul_split's bounds need.
 */
template <int N, class Params>
PROOFLINE_HD void redc_wide(uint32_t (&r)[N], uint32_t& r_hi, const uint32_t (&t)[2 * N]) {
    uint32_t p[N];
#pragma unroll
    for (int j = 0; j < N; j++) p[j] = Params::modulus(j);
    uint32_t x[N + 1], y[N + 1];
#pragma unroll
    for (int j = 0; j < N; j++) {
        x[j] = t[j];
        y[j] = 0;
    }
    x[N] = y[N] = 0;
    uint32_t s_lo = 0, s_hi = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        if ((i & 1) == 0) {
            split_reduce_row<N, Params>(x, y, s_lo, s_hi, p);
        } else {
            split_reduce_row<N, Params>(y, x, s_lo, s_hi, p);
        }
    }
    // As at the end of mul_split: x + y·2^32 + s, then + H.
    carry_chain c1;
    r[0] = c1.add_cc(x[0], s_lo);
    r[1] = c1.addc_cc(x[1], s_hi);
#pragma unroll
    for (int k = 2; k < N; k++) r[k] = c1.addc_cc(x[k], 0);
    r_hi = c1.addc(x[N], 0);
    carry_chain c2;
    r[1] = c2.add_cc(r[1], y[0]);
#pragma unroll
    for (int k = 2; k < N; k++) r[k] = c2.addc_cc(r[k], y[k - 1]);
    r_hi = c2.addc(r_hi, y[N - 1]);
    carry_chain c3;
    r[0] = c3.add_cc(r[0], t[N]);
#pragma unroll
    for (int k = 1; k < N; k++) r[k] = c3.addc_cc(r[k], t[N + k]);
    r_hi = c3.addc(r_hi, 0);
}

/**
 * The two coefficients of an Fq2 product (Fq[u]/(u² + 1)) with lazy reduction, before the final subtraction: r0 =
 * (a0b0 − a1b1)·2^(−32N), r1 = (a0b1 + a1b0)·2^(−32N) mod p, each below 2p. Karatsuba at full width: v0 = a0·b0,
 * v1 = a1·b1, s = (a0 + a1)(b0 + b1) (the sums unreduced, below 2p < 2^(32N)), then r1 from s − v0 − v1 = a0b1 + a1b0
 * < 2p² and r0 from v0 − v1 ∈ (−p², p²), plus p·2^(32N) when negative: both below p·2^(32N), as redc_wide needs.
 * Three products and two reductions instead of three Montgomery multiplications (three of each). Needs 4p < 2^(32N)
 * (so that the sums and the bounds fit); a, b < p.
 */
template <int N, class Params>
PROOFLINE_HD void fq2_mul_wide(uint32_t (&r0)[N], uint32_t& r0_hi, uint32_t (&r1)[N], uint32_t& r1_hi,
                               const uint32_t (&a0)[N], const uint32_t (&a1)[N], const uint32_t (&b0)[N],
                               const uint32_t (&b1)[N]) {
    static_assert(Params::BITS <= 32 * N - 2, "lazy Fq2 reduction needs 4p < 2^(32N)");
    uint32_t sa[N], sb[N];
    // One chain after the other: on the device all chains share the one carry flag, so no two may interleave.
    carry_chain ca;
    sa[0] = ca.add_cc(a0[0], a1[0]);
#pragma unroll
    for (int k = 1; k < N - 1; k++) sa[k] = ca.addc_cc(a0[k], a1[k]);
    sa[N - 1] = ca.addc(a0[N - 1], a1[N - 1]);
    carry_chain cb;
    sb[0] = cb.add_cc(b0[0], b1[0]);
#pragma unroll
    for (int k = 1; k < N - 1; k++) sb[k] = cb.addc_cc(b0[k], b1[k]);
    sb[N - 1] = cb.addc(b0[N - 1], b1[N - 1]);
    uint32_t v0[2 * N], v1[2 * N], s[2 * N];
    mul_wide<N>(v0, a0, b0);
    mul_wide<N>(v1, a1, b1);
    mul_wide<N>(s, sa, sb);
    // s −= v0 + v1 (never negative); v0 −= v1, + p·2^(32N) on a borrow.
    carry_chain d1;
    s[0] = d1.sub_cc(s[0], v0[0]);
#pragma unroll
    for (int k = 1; k < 2 * N; k++) s[k] = d1.subc_cc(s[k], v0[k]);
    carry_chain d2;
    s[0] = d2.sub_cc(s[0], v1[0]);
#pragma unroll
    for (int k = 1; k < 2 * N; k++) s[k] = d2.subc_cc(s[k], v1[k]);
    carry_chain d3;
    v0[0] = d3.sub_cc(v0[0], v1[0]);
#pragma unroll
    for (int k = 1; k < 2 * N; k++) v0[k] = d3.subc_cc(v0[k], v1[k]);
    const uint32_t mask = d3.subc(0, 0);  // 0xffffffff on a borrow
    carry_chain d4;
    v0[N] = d4.add_cc(v0[N], Params::modulus(0) & mask);
#pragma unroll
    for (int k = 1; k < N - 1; k++) v0[N + k] = d4.addc_cc(v0[N + k], Params::modulus(k) & mask);
    v0[2 * N - 1] = d4.addc(v0[2 * N - 1], Params::modulus(N - 1) & mask);
    redc_wide<N, Params>(r0, r0_hi, v0);
    redc_wide<N, Params>(r1, r1_hi, s);
}

}  // namespace ff
}  // namespace proofline
