// Lab (issue #21): field inversion by Bernstein and Yang's divsteps ("safegcd", https://gcd.cr.yp.to/papers.html),
// for the batch-affine harness. Not part of the build.
//
// Why: batch-affine accumulation pays one inversion per batch of K additions, and Fermat's x^(p−2) costs about 330
// multiplications (BN254; 490 for BLS12-381), so only K ≥ 64 amortizes it and those K lanes' state spills to local
// memory. A divsteps inversion is integer work on 32-bit words, with no Montgomery multiplication in its loop: counted
// in issue slots it should cost 70–90 multiplications (BN254), which would move the break-even to K ≈ 16–32.
// Measured on an H100 (docs/lab/gpu-variants.md, variant 23): 54.3 multiplications (BN254) and 46.9 (BLS12-381)
// against Fermat's 333 and 499.
//
// The scheme, batch form with N = 30 divsteps per round, in the "half-delta" form (hddivsteps: the divsteps of the
// paper started at δ = 1/2 instead of 1, which needs about 20 % fewer of them; sipa/safegcd-bounds):
//   f = p, g = x, d = 0, e = 1, ζ = −(δ + 1/2) = −1; for each of R rounds:
//     (ζ, t) = the 2×2 matrix t = [u v; q r] of N divsteps, from the bottom 30 bits of f and g alone
//     [f; g] = t·[f; g] / 2^N                  (exact: the N low bits cancel)
//     [d; e] = t·[d; e] / 2^N mod p           (adds a multiple of p that cancels the low bits; d, e stay in (−2p, p))
//   then g = 0, f = ±1 and x⁻¹ = ±d mod p.
// R is fixed (constant time, so a warp's lanes never diverge): ⌈D/N⌉ with D = ⌊(3787b + 2166)/1644⌋ hddivsteps, the
// bound safegcd-bounds verified for all 0 ≤ g ≤ f ≤ M < 2^b (b ≤ 3805): 20 rounds for BN254 (b = 254, D = 586), 30
// for BLS12-381 (b = 381, D = 878), where the plain divsteps' proven bound ⌊(49b + 57)/17⌋ (the paper's Theorem 11.2)
// takes 25 and 37.
//
// Numbers are L limbs of 30 bits, the top one signed: value = Σ v[i]·2^(30i), v[i] ∈ [0, 2^30) below the top. With
// |u| + |v| ≤ 2^30 every product of a limb by a matrix entry fits 61 bits, so each limb step is int64 arithmetic.
// Everything here is plain C++ (no PTX), so the host test (safegcd_test.cu) runs the same code as the device.
#pragma once
#include <cstdint>

namespace proofline {
namespace lab {

template <class Params>
struct safegcd {
    static constexpr int BITS = Params::BITS;
    static constexpr int WORDS = Params::LIMBS;  // 32-bit words of a canonical element
    /** Limbs of 30 bits: d, e ∈ (−2p, p) need b + 2 bits with the sign. */
    static constexpr int L = (BITS + 2 + 29) / 30;
    static constexpr int32_t M30 = (1 << 30) - 1;
    static constexpr int DIVSTEPS = (3787 * BITS + 2166) / 1644;
    static constexpr int ROUNDS = (DIVSTEPS + 29) / 30;
    /** p⁻¹ mod 2^30, from the Montgomery factor M0 = −p⁻¹ mod 2^32. */
    static constexpr uint32_t P_INV30 = (0u - Params::M0) & uint32_t(M30);

    struct s30 {
        int32_t v[L];
    };

    /** The transition matrix of 30 divsteps, scaled by 2^30. */
    struct matrix {
        int32_t u, v, q, r;
    };

    /** Bits [at, at + 30) of a little-endian array of WORDS 32-bit words (zeros past its end). */
    __host__ __device__ __forceinline__ static int32_t bits30(const uint32_t* w, int at) {
        const int word = at >> 5, shift = at & 31;
        uint64_t window = word < WORDS ? w[word] : 0u;
        if (word + 1 < WORDS) window |= uint64_t(w[word + 1]) << 32;
        return int32_t((window >> shift) & uint64_t(M30));
    }

    /** A canonical element (WORDS words) as non-negative limbs. */
    __host__ __device__ __forceinline__ static s30 from_words(const uint32_t* w) {
        s30 r;
#pragma unroll
        for (int i = 0; i < L; i++) r.v[i] = bits30(w, 30 * i);
        return r;
    }

    /** Non-negative canonical limbs (value < 2^(32·WORDS)) back to WORDS words. */
    __host__ __device__ __forceinline__ static void to_words(const s30& a, uint32_t* w) {
#pragma unroll
        for (int j = 0; j < WORDS; j++) {
            const int at = 32 * j, limb = at / 30, shift = at % 30;
            uint64_t window = uint64_t(uint32_t(a.v[limb])) >> shift;
            if (limb + 1 < L) window |= uint64_t(uint32_t(a.v[limb + 1])) << (30 - shift);
            if (limb + 2 < L) window |= uint64_t(uint32_t(a.v[limb + 2])) << (60 - shift);
            w[j] = uint32_t(window);
        }
    }

    __host__ __device__ __forceinline__ static s30 modulus() {
        uint32_t w[WORDS];
#pragma unroll
        for (int j = 0; j < WORDS; j++) w[j] = Params::modulus(j);
        return from_words(w);
    }

    /**
     * 30 hddivsteps on the bottom bits of f and g (f odd), branch-free: returns ζ after them and sets t. Per step, with
     * c1 = (ζ < 0, i.e. δ > 0) and c2 = (g odd) as all-ones masks: g += ±f (−f when ζ < 0), and when both hold f
     * takes the old g and ζ becomes −ζ − 2 (δ → 1 − δ), otherwise ζ − 1 (δ → 1 + δ); g halves, and f's row of the
     * matrix doubles instead (the matrix carries the 2^30).
     */
    __host__ __device__ __forceinline__ static int32_t divsteps(int32_t zeta, uint32_t f, uint32_t g, matrix& t) {
        uint32_t u = 1, v = 0, q = 0, r = 1;
#pragma unroll
        for (int i = 0; i < 30; i++) {
            uint32_t c1 = uint32_t(zeta >> 31);
            const uint32_t x = (f ^ c1) - c1, y = (u ^ c1) - c1, z = (v ^ c1) - c1;
            const uint32_t c2 = 0u - (g & 1u);
            g += x & c2;
            q += y & c2;
            r += z & c2;
            c1 &= c2;
            zeta = (zeta ^ int32_t(c1)) - 1;
            f += g & c1;
            u += q & c1;
            v += r & c1;
            g >>= 1;
            u <<= 1;
            v <<= 1;
        }
        t = matrix{int32_t(u), int32_t(v), int32_t(q), int32_t(r)};
        return zeta;
    }

    /** [f; g] = t·[f; g] / 2^30, exactly. */
    __host__ __device__ __forceinline__ static void update_fg(s30& f, s30& g, const matrix& t) {
        int64_t cf = int64_t(t.u) * f.v[0] + int64_t(t.v) * g.v[0];
        int64_t cg = int64_t(t.q) * f.v[0] + int64_t(t.r) * g.v[0];
        cf >>= 30;
        cg >>= 30;
#pragma unroll
        for (int i = 1; i < L; i++) {
            cf += int64_t(t.u) * f.v[i] + int64_t(t.v) * g.v[i];
            cg += int64_t(t.q) * f.v[i] + int64_t(t.r) * g.v[i];
            f.v[i - 1] = int32_t(cf) & M30;
            g.v[i - 1] = int32_t(cg) & M30;
            cf >>= 30;
            cg >>= 30;
        }
        f.v[L - 1] = int32_t(cf);
        g.v[L - 1] = int32_t(cg);
    }

    /**
     * [d; e] = t·[d; e] / 2^30 mod p, for d, e ∈ (−2p, p) and the result in the same range: p is added to a negative
     * input (folded into the multiples md, me of p), and md, me are then lowered so that t·[d; e] + p·[md; me] has
     * 30 zero low bits (the lowering is what keeps the range, see libsecp256k1's safegcd notes, section 4).
     */
    __host__ __device__ __forceinline__ static void update_de(s30& d, s30& e, const matrix& t, const s30& p) {
        const int32_t sd = d.v[L - 1] >> 31, se = e.v[L - 1] >> 31;
        int32_t md = (t.u & sd) + (t.v & se);
        int32_t me = (t.q & sd) + (t.r & se);
        int64_t cd = int64_t(t.u) * d.v[0] + int64_t(t.v) * e.v[0];
        int64_t ce = int64_t(t.q) * d.v[0] + int64_t(t.r) * e.v[0];
        md -= int32_t((P_INV30 * uint32_t(cd) + uint32_t(md)) & uint32_t(M30));
        me -= int32_t((P_INV30 * uint32_t(ce) + uint32_t(me)) & uint32_t(M30));
        cd += int64_t(p.v[0]) * md;
        ce += int64_t(p.v[0]) * me;
        cd >>= 30;
        ce >>= 30;
#pragma unroll
        for (int i = 1; i < L; i++) {
            cd += int64_t(t.u) * d.v[i] + int64_t(t.v) * e.v[i] + int64_t(p.v[i]) * md;
            ce += int64_t(t.q) * d.v[i] + int64_t(t.r) * e.v[i] + int64_t(p.v[i]) * me;
            d.v[i - 1] = int32_t(cd) & M30;
            e.v[i - 1] = int32_t(ce) & M30;
            cd >>= 30;
            ce >>= 30;
        }
        d.v[L - 1] = int32_t(cd);
        e.v[L - 1] = int32_t(ce);
    }

    /** Limbs back to [0, 2^30) below a signed top limb. */
    __host__ __device__ __forceinline__ static void carry(s30& a) {
#pragma unroll
        for (int i = 0; i < L - 1; i++) {
            a.v[i + 1] += a.v[i] >> 30;
            a.v[i] &= M30;
        }
    }

    /** a += p where a < 0 (mask from the top limb's sign). */
    __host__ __device__ __forceinline__ static void add_p_if_negative(s30& a, const s30& p) {
        const int32_t negative = a.v[L - 1] >> 31;
#pragma unroll
        for (int i = 0; i < L; i++) a.v[i] += p.v[i] & negative;
        carry(a);
    }

    /** ±d mod p in [0, p), for d ∈ (−2p, p) and `negate` all ones (−) or zero (+). */
    __host__ __device__ __forceinline__ static void normalize(s30& d, int32_t negate, const s30& p) {
        add_p_if_negative(d, p);  // (−p, p)
#pragma unroll
        for (int i = 0; i < L; i++) d.v[i] = (d.v[i] ^ negate) - negate;
        carry(d);
        add_p_if_negative(d, p);  // [0, p)
    }

    /** out = x⁻¹ mod p for a canonical x (0 gives 0, as Fermat's x^(p−2) does). */
    __host__ __device__ __forceinline__ static void invert_words(const uint32_t* x, uint32_t* out) {
        const s30 p = modulus();
        s30 f = p, g = from_words(x), d{}, e{};
        e.v[0] = 1;
        int32_t zeta = -1;
#pragma unroll 1
        for (int round = 0; round < ROUNDS; round++) {
            matrix t;
            zeta = divsteps(zeta, uint32_t(f.v[0]), uint32_t(g.v[0]), t);
            update_de(d, e, t, p);
            update_fg(f, g, t);
        }
        // g = 0 and f = ±1 now; f's sign is its top limb's.
        normalize(d, f.v[L - 1] >> 31, p);
        to_words(d, out);
    }
};

}  // namespace lab
}  // namespace proofline
