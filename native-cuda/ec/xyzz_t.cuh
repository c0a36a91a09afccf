// Short-Weierstrass points y² = x³ + b (a = 0) in XYZZ coordinates: x = X/ZZ, y = Y/ZZZ, ZZ³ = ZZZ².
// Formulas from the Explicit-Formulas Database, "xyzz" (Cohen–Miyaji–Ono 1998 style, EFD names):
//   madd-2008-s   XYZZ + affine        8M + 2S
//   add-2008-s    XYZZ + XYZZ         12M + 2S
//   mdbl-2008-s-1 2·affine → XYZZ      2M + 3S (a = 0)
//   dbl-2008-s-1  2·XYZZ               6M + 3S (a = 0)
// Why XYZZ for buckets: mixed addition is the cheapest projective addition with affine inputs (8M+2S against
// Jacobian's 7M+4S madd but without Jacobian's extra squarings in the doubling fallback), and a bucket's
// zero test is ZZ == 0. The point at infinity is ZZ = ZZZ = 0; an affine input (0, 0) is infinity too
// (snarkjs's encoding; (0,0) is not on the curve since b ≠ 0).
#pragma once

namespace proofline {
namespace ec {

template <class Fq>
struct affine_t {
    Fq x, y;

    __device__ __forceinline__ bool is_infinity() const { return x.is_zero() && y.is_zero(); }

    __device__ __forceinline__ static affine_t load(const affine_t* base, size_t i) {
        const Fq* f = reinterpret_cast<const Fq*>(base + i);
        affine_t r;
        r.x = Fq::load(f, 0);
        r.y = Fq::load(f, 1);
        return r;
    }
};

template <class Fq>
struct xyzz_t {
    Fq X, Y, ZZ, ZZZ;

    __device__ __forceinline__ static xyzz_t infinity() {
        xyzz_t r;
        r.X = Fq::zero();
        r.Y = Fq::zero();
        r.ZZ = Fq::zero();
        r.ZZZ = Fq::zero();
        return r;
    }

    __device__ __forceinline__ bool is_infinity() const { return ZZ.is_zero(); }

    __device__ __forceinline__ static xyzz_t from_affine(const affine_t<Fq>& p) {
        if (p.is_infinity()) return infinity();
        xyzz_t r;
        r.X = p.x;
        r.Y = p.y;
        r.ZZ = Fq::one();
        r.ZZZ = Fq::one();
        return r;
    }

    __device__ __forceinline__ static xyzz_t load(const xyzz_t* base, size_t i) {
        const Fq* f = reinterpret_cast<const Fq*>(base + i);
        xyzz_t r;
        r.X = Fq::load(f, 0);
        r.Y = Fq::load(f, 1);
        r.ZZ = Fq::load(f, 2);
        r.ZZZ = Fq::load(f, 3);
        return r;
    }

    __device__ __forceinline__ void store(xyzz_t* base, size_t i) const {
        Fq* f = reinterpret_cast<Fq*>(base + i);
        X.store(f, 0);
        Y.store(f, 1);
        ZZ.store(f, 2);
        ZZZ.store(f, 3);
    }

    __device__ __forceinline__ xyzz_t neg() const {
        xyzz_t r = *this;
        r.Y = Y.neg();
        return r;
    }

    /** dbl-2008-s-1 (a = 0): U = 2Y, V = U², W = U·V, S = X·V, M = 3X², X3 = M² − 2S, Y3 = M(S − X3) − W·Y,
     *  ZZ3 = V·ZZ, ZZZ3 = W·ZZZ. 6M + 3S. */
    __device__ __forceinline__ xyzz_t dbl() const {
        if (is_infinity()) return *this;
        Fq U = Y.dbl();
        Fq V = U.sqr();
        Fq W = U * V;
        Fq S = X * V;
        Fq XX = X.sqr();
        Fq M = XX.dbl() + XX;
        xyzz_t r;
        r.X = M.sqr() - S.dbl();
        r.Y = M * (S - r.X) - W * Y;
        r.ZZ = V * ZZ;
        r.ZZZ = W * ZZZ;
        return r;
    }

    /** mdbl-2008-s-1 (a = 0) of an affine point: as dbl with ZZ = ZZZ = 1. 2M + 3S. */
    __device__ __forceinline__ static xyzz_t dbl_affine(const affine_t<Fq>& p) {
        Fq U = p.y.dbl();
        Fq V = U.sqr();
        Fq W = U * V;
        Fq S = p.x * V;
        Fq XX = p.x.sqr();
        Fq M = XX.dbl() + XX;
        xyzz_t r;
        r.X = M.sqr() - S.dbl();
        r.Y = M * (S - r.X) - W * p.y;
        r.ZZ = V;
        r.ZZZ = W;
        return r;
    }

    /** this += affine q, madd-2008-s: U2 = x2·ZZ1, S2 = y2·ZZZ1, P = U2 − X1, R = S2 − Y1, PP = P², PPP = P·PP,
     *  Q = X1·PP, X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP, ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP. 8M + 2S.
     *  P = 0 means equal x: doubling when R = 0 too, else the sum is infinity. */
    __device__ __forceinline__ void add_affine(const affine_t<Fq>& q) {
        if (q.is_infinity()) return;
        if (is_infinity()) {
            *this = from_affine(q);
            return;
        }
        Fq U2 = q.x * ZZ;
        Fq S2 = q.y * ZZZ;
        Fq P = U2 - X;
        Fq R = S2 - Y;
        if (P.is_zero()) {
            *this = R.is_zero() ? dbl_affine(q) : infinity();
            return;
        }
        Fq PP = P.sqr();
        Fq PPP = P * PP;
        Fq Q = X * PP;
        Fq X3 = R.sqr() - PPP - Q.dbl();
        Y = R * (Q - X3) - Y * PPP;
        X = X3;
        ZZ = ZZ * PP;
        ZZZ = ZZZ * PPP;
    }

    /** this += q, add-2008-s: U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1, P = U2 − U1, R = S2 − S1,
     *  PP = P², PPP = P·PP, Q = U1·PP, X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP, ZZ3 = ZZ1·ZZ2·PP,
     *  ZZZ3 = ZZZ1·ZZZ2·PPP. 12M + 2S. */
    __device__ __forceinline__ void add(const xyzz_t& q) {
        if (q.is_infinity()) return;
        if (is_infinity()) {
            *this = q;
            return;
        }
        Fq U1 = X * q.ZZ;
        Fq U2 = q.X * ZZ;
        Fq S1 = Y * q.ZZZ;
        Fq S2 = q.Y * ZZZ;
        Fq P = U2 - U1;
        Fq R = S2 - S1;
        if (P.is_zero()) {
            *this = R.is_zero() ? dbl() : infinity();
            return;
        }
        Fq PP = P.sqr();
        Fq PPP = P * PP;
        Fq Q = U1 * PP;
        Fq X3 = R.sqr() - PPP - Q.dbl();
        Y = R * (Q - X3) - S1 * PPP;
        X = X3;
        ZZ = ZZ * q.ZZ * PP;
        ZZZ = ZZZ * q.ZZZ * PPP;
    }

};

}  // namespace ec
}  // namespace proofline
