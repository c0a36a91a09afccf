// A prime field in Montgomery form on 32-bit little-endian limbs, parameterized by a params struct from
// fields.cuh (LIMBS, M0 = −p⁻¹ mod 2^32, modulus(i), one(i), r_squared(i)).
//
// Why 32-bit limbs: the GPU's integer multiplier is 32×32 bits (IMAD); a 64-bit product costs four of them.
// Carries travel in the condition-code flag through PTX's .cc instructions (add.cc/addc, mad.lo.cc/madc.hi.cc),
// so no carry is ever recomputed by comparison. The asm statements are volatile so that the compiler keeps
// them in order: the carry flag is a dependency that it cannot see.
#pragma once
#include <cstdint>
#include "cios_split.cuh"

namespace proofline {
namespace ff {

template <class Params>
struct alignas(16) mont_t {  // 16-byte aligned: elements move as uint4, in shared memory too
    static constexpr int N = Params::LIMBS;
    static_assert(N % 4 == 0, "limb count must allow 16-byte loads");
    static_assert(Params::BITS <= 32 * N, "p must fit N limbs (sums and CIOS rows carry into an extra word)");

    uint32_t v[N];

    // ---- construction and memory ------------------------------------------------------------------------

    __device__ __forceinline__ static mont_t zero() {
        mont_t r;
#pragma unroll
        for (int i = 0; i < N; i++) r.v[i] = 0;
        return r;
    }

    __device__ __forceinline__ static mont_t one() {
        mont_t r;
#pragma unroll
        for (int i = 0; i < N; i++) r.v[i] = Params::one(i);
        return r;
    }

    /** Loads element i of a contiguous array (16-byte loads). */
    __device__ __forceinline__ static mont_t load(const mont_t* base, size_t i) {
        const uint4* src = reinterpret_cast<const uint4*>(base + i);
        mont_t r;
#pragma unroll
        for (int k = 0; k < N / 4; k++) {
            uint4 q = src[k];
            r.v[4 * k] = q.x;
            r.v[4 * k + 1] = q.y;
            r.v[4 * k + 2] = q.z;
            r.v[4 * k + 3] = q.w;
        }
        return r;
    }

    __device__ __forceinline__ void store(mont_t* base, size_t i) const {
        uint4* dst = reinterpret_cast<uint4*>(base + i);
#pragma unroll
        for (int k = 0; k < N / 4; k++) {
            dst[k] = make_uint4(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
        }
    }

    __device__ __forceinline__ bool is_zero() const {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++) acc |= v[i];
        return acc == 0;
    }

    __device__ __forceinline__ bool operator==(const mont_t& b) const {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++) acc |= v[i] ^ b.v[i];
        return acc == 0;
    }

    // ---- addition and subtraction -----------------------------------------------------------------------

    /** r = a + b mod p: N-word add, then subtract p and keep the difference unless it borrowed. */
    __device__ __forceinline__ friend mont_t operator+(const mont_t& a, const mont_t& b) {
        mont_t s;
        asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(s.v[0]) : "r"(a.v[0]), "r"(b.v[0]));
#pragma unroll
        for (int i = 1; i < N; i++) {
            asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(s.v[i]) : "r"(a.v[i]), "r"(b.v[i]));
        }
        uint32_t carry;
        asm volatile("addc.u32 %0, 0, 0;" : "=r"(carry));
        return reduce_once(s, carry);
    }

    /** r = a − b mod p: subtract, then add back p masked by the borrow. */
    __device__ __forceinline__ friend mont_t operator-(const mont_t& a, const mont_t& b) {
        mont_t d;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.v[0]) : "r"(a.v[0]), "r"(b.v[0]));
#pragma unroll
        for (int i = 1; i < N; i++) {
            asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.v[i]) : "r"(a.v[i]), "r"(b.v[i]));
        }
        uint32_t mask;  // 0xffffffff when a < b
        asm volatile("subc.u32 %0, 0, 0;" : "=r"(mask));
        asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(d.v[0]) : "r"(Params::modulus(0) & mask));
#pragma unroll
        for (int i = 1; i < N - 1; i++) {
            asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(d.v[i]) : "r"(Params::modulus(i) & mask));
        }
        asm volatile("addc.u32 %0, %0, %1;" : "+r"(d.v[N - 1]) : "r"(Params::modulus(N - 1) & mask));
        return d;
    }

    __device__ __forceinline__ mont_t& operator+=(const mont_t& b) { return *this = *this + b; }
    __device__ __forceinline__ mont_t& operator-=(const mont_t& b) { return *this = *this - b; }

    __device__ __forceinline__ mont_t dbl() const { return *this + *this; }

    /** −a mod p (0 stays 0). */
    __device__ __forceinline__ mont_t neg() const { return zero() - *this; }

    // ---- multiplication -----------------------------------------------------------------------------------

    /**
     * r = a·b·R⁻¹ mod p by CIOS (Koç, Acar, Kaliski 1996, "Analyzing and comparing Montgomery multiplication
     * algorithms", §4): per row t += a·b_i, m = t₀·M0, t += m·p, shift one word; t < 2p after each row, one final
     * subtraction, 4N² multiply-adds, with the accumulator split by limb parity (cios_split.cuh: two independent
     * carry chains per row instead of one, which a latency-bound multiplication runs faster; docs/lab/gpu-variants.md).
     */
    __device__ __forceinline__ friend mont_t operator*(const mont_t& a, const mont_t& b) {
        mont_t s;
        uint32_t hi;
        mul_split<N, Params>(s.v, hi, a.v, b.v);
        return reduce_once(s, hi);
    }

    __device__ __forceinline__ mont_t& operator*=(const mont_t& b) { return *this = *this * b; }

    __device__ __forceinline__ mont_t sqr() const { return *this * *this; }

    /** Canonical value (a·R⁻¹): multiply by the plain integer 1. */
    __device__ __forceinline__ mont_t from_montgomery() const {
        mont_t unit = zero();
        unit.v[0] = 1;
        return *this * unit;
    }

    /** Montgomery form of a canonical value: multiply by R² mod p. */
    __device__ __forceinline__ mont_t to_montgomery() const {
        mont_t r2;
#pragma unroll
        for (int i = 0; i < N; i++) r2.v[i] = Params::r_squared(i);
        return *this * r2;
    }

private:
    /** (hi:s) < 2p → s mod p: subtract p, keep the difference unless the subtraction borrowed. */
    __device__ __forceinline__ static mont_t reduce_once(const mont_t& s, uint32_t hi) {
        mont_t d;
        asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(d.v[0]) : "r"(s.v[0]), "r"(Params::modulus(0)));
#pragma unroll
        for (int i = 1; i < N; i++) {
            asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(d.v[i]) : "r"(s.v[i]), "r"(Params::modulus(i)));
        }
        uint32_t borrow;  // 0xffffffff when (hi:s) < p
        asm volatile("subc.u32 %0, %1, 0;" : "=r"(borrow) : "r"(hi));
        mont_t r;
#pragma unroll
        for (int i = 0; i < N; i++) r.v[i] = borrow ? s.v[i] : d.v[i];
        return r;
    }
};

}  // namespace ff
}  // namespace proofline
