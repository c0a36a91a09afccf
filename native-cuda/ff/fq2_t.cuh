// The quadratic extension Fq2 = Fq[u]/(u² + 1) over a mont_t base field: G2's coordinate field on both curves
// (BN254 and BLS12-381 both take u² = −1, as snarkjs/ffjavascript do). An element is c0 + c1·u, stored c0‖c1 —
// the zkey's layout and the host's (QuadraticField), so G2 points move between host and device unchanged.
//
// Multiplication and squaring are inlined (Inline = true) or real calls (Inline = false). Inlined, the point formulas
// keep every operand in registers and the scheduler interleaves independent products; that is what the hot kernel,
// the bucket accumulation, uses. The other G2 kernels (reduction levels, partial sums: several full additions and a
// doubling each) take the calls, because inlined there the compiler's front end runs for over 12 minutes. The calls
// take their operands by value, so the ABI passes them in registers: by reference each operand had to be stored to
// local memory for the call (an 832-byte stack frame in the accumulation), which made G2 cost ~6x G1 instead of ~3x.
//
// It offers the interface ec::xyzz_t expects of a field (zero, one, load, store, is_zero, +, −, ·, sqr, dbl, neg),
// so the same point templates instantiate G2.
#pragma once
#include <cstdint>

namespace proofline {
namespace ff {

template <class Fq, bool Inline>
struct alignas(16) fq2_t {
    Fq c0, c1;

    __device__ __forceinline__ static fq2_t zero() { return fq2_t{Fq::zero(), Fq::zero()}; }

    __device__ __forceinline__ static fq2_t one() { return fq2_t{Fq::one(), Fq::zero()}; }

    __device__ __forceinline__ static fq2_t load(const fq2_t* base, size_t i) {
        const Fq* f = reinterpret_cast<const Fq*>(base + i);
        return fq2_t{Fq::load(f, 0), Fq::load(f, 1)};
    }

    __device__ __forceinline__ void store(fq2_t* base, size_t i) const {
        Fq* f = reinterpret_cast<Fq*>(base + i);
        c0.store(f, 0);
        c1.store(f, 1);
    }

    __device__ __forceinline__ bool is_zero() const { return c0.is_zero() && c1.is_zero(); }

    __device__ __forceinline__ bool operator==(const fq2_t& b) const { return c0 == b.c0 && c1 == b.c1; }

    __device__ __forceinline__ friend fq2_t operator+(const fq2_t& a, const fq2_t& b) {
        return fq2_t{a.c0 + b.c0, a.c1 + b.c1};
    }

    __device__ __forceinline__ friend fq2_t operator-(const fq2_t& a, const fq2_t& b) {
        return fq2_t{a.c0 - b.c0, a.c1 - b.c1};
    }

    __device__ __forceinline__ fq2_t dbl() const { return fq2_t{c0.dbl(), c1.dbl()}; }

    __device__ __forceinline__ fq2_t neg() const { return fq2_t{c0.neg(), c1.neg()}; }

    __device__ __forceinline__ friend fq2_t operator*(const fq2_t& a, const fq2_t& b) {
        if constexpr (Inline) {
            return mul(a, b);
        } else {
            return mul_call(a, b);
        }
    }

    __device__ __forceinline__ fq2_t sqr() const {
        if constexpr (Inline) {
            return sqr_of(*this);
        } else {
            return sqr_call(*this);
        }
    }

#ifndef PROOFLINE_FQ2_EAGER
    /**
     * Karatsuba with lazy reduction (cios_split.cuh, fq2_mul_wide): the products v0 = a0·b0, v1 = a1·b1 and
     * s = (a0 + a1)(b0 + b1) at full width, c0 = v0 − v1 and c1 = s − v0 − v1 each reduced once: 3 products and 2
     * Montgomery reductions instead of 3 of each, and the sums a0 + a1, b0 + b1 unreduced.
     */
    __device__ __forceinline__ static fq2_t mul(const fq2_t& a, const fq2_t& b) {
        fq2_t r;
        uint32_t hi0, hi1;
        fq2_mul_wide<Fq::N, typename Fq::params>(r.c0.v, hi0, r.c1.v, hi1, a.c0.v, a.c1.v, b.c0.v, b.c1.v);
        r.c0 = Fq::reduce_once(r.c0, hi0);
        r.c1 = Fq::reduce_once(r.c1, hi1);
        return r;
    }
#else
    /** Karatsuba, 3 base multiplications: v0 = a0·b0, v1 = a1·b1, c0 = v0 − v1, c1 = (a0 + a1)(b0 + b1) − v0 − v1. */
    __device__ __forceinline__ static fq2_t mul(const fq2_t& a, const fq2_t& b) {
        const Fq v0 = a.c0 * b.c0;
        const Fq v1 = a.c1 * b.c1;
        const Fq s = (a.c0 + a.c1) * (b.c0 + b.c1);
        return fq2_t{v0 - v1, s - v0 - v1};
    }
#endif

    /** Complex squaring, 2 base multiplications: (a0 + a1)(a0 − a1) + 2·a0·a1·u. */
    __device__ __forceinline__ static fq2_t sqr_of(const fq2_t& a) {
        const Fq m = a.c0 * a.c1;
        return fq2_t{(a.c0 + a.c1) * (a.c0 - a.c1), m.dbl()};
    }

    __device__ __noinline__ static fq2_t mul_call(fq2_t a, fq2_t b) { return mul(a, b); }

    __device__ __noinline__ static fq2_t sqr_call(fq2_t a) { return sqr_of(a); }
};

}  // namespace ff
}  // namespace proofline
