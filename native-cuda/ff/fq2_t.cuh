// The quadratic extension Fq2 = Fq[u]/(u² + 1) over a mont_t base field: G2's coordinate field on both curves
// (BN254 and BLS12-381 both take u² = −1, as snarkjs/ffjavascript do). An element is c0 + c1·u, stored c0‖c1 —
// the zkey's layout and the host's (QuadraticField), so G2 points move between host and device unchanged.
//
// How the multiplication and squaring are compiled is a template parameter (fq2_mul), chosen per kernel by measurement
// (docs/lab/gpu-variants.md, variant 13):
//   inline            the point formulas keep every operand in registers and the scheduler interleaves independent
//                     products: the bucket accumulation, the hot kernel, of both curves
//   call_by_value     a real call whose operands travel in registers: BN254's other G2 kernels (inlined there, the
//                     reduction levels and partial sums made the compiler's front end run for over 12 minutes)
//   call_by_reference a real call whose operands go through local memory: BLS12-381's other G2 kernels, whose larger
//                     points leave no registers to spare, so that passing by value spilled around every call (their
//                     reduction took 4x as long)
//
// It offers the interface ec::xyzz_t expects of a field (zero, one, load, store, is_zero, +, −, ·, sqr, dbl, neg),
// so the same point templates instantiate G2.
#pragma once
#include <cstdint>

namespace proofline {
namespace ff {

enum class fq2_mul { inline_, call_by_value, call_by_reference };

template <class Fq, fq2_mul Mode>
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
        if constexpr (Mode == fq2_mul::inline_) {
            return mul(a, b);
        } else if constexpr (Mode == fq2_mul::call_by_value) {
            return mul_by_value(a, b);
        } else {
            return mul_by_reference(a, b);
        }
    }

    __device__ __forceinline__ fq2_t sqr() const {
        if constexpr (Mode == fq2_mul::inline_) {
            return sqr_of(*this);
        } else if constexpr (Mode == fq2_mul::call_by_value) {
            return sqr_by_value(*this);
        } else {
            return sqr_by_reference(*this);
        }
    }

    /** Karatsuba, 3 base multiplications: v0 = a0·b0, v1 = a1·b1, c0 = v0 − v1, c1 = (a0 + a1)(b0 + b1) − v0 − v1. */
    __device__ __forceinline__ static fq2_t mul(const fq2_t& a, const fq2_t& b) {
        const Fq v0 = a.c0 * b.c0;
        const Fq v1 = a.c1 * b.c1;
        const Fq s = (a.c0 + a.c1) * (b.c0 + b.c1);
        return fq2_t{v0 - v1, s - v0 - v1};
    }

    /** Complex squaring, 2 base multiplications: (a0 + a1)(a0 − a1) + 2·a0·a1·u. */
    __device__ __forceinline__ static fq2_t sqr_of(const fq2_t& a) {
        const Fq m = a.c0 * a.c1;
        return fq2_t{(a.c0 + a.c1) * (a.c0 - a.c1), m.dbl()};
    }

    __device__ __noinline__ static fq2_t mul_by_value(fq2_t a, fq2_t b) { return mul(a, b); }

    __device__ __noinline__ static fq2_t sqr_by_value(fq2_t a) { return sqr_of(a); }

    __device__ __noinline__ static fq2_t mul_by_reference(const fq2_t& a, const fq2_t& b) { return mul(a, b); }

    __device__ __noinline__ static fq2_t sqr_by_reference(const fq2_t& a) { return sqr_of(a); }
};

}  // namespace ff
}  // namespace proofline
