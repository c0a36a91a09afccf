package io.proofline.algebra.curve;

import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.QuadraticField;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Group arithmetic on one {@link CurveGroup} with points stored flat in {@code long[]} at an offset: {@link Affine}
 * (x‖y, all zeros = infinity), {@link Jacobian} (X‖Y‖Z) and {@link Xyzz} (X‖Y‖ZZ‖ZZZ). Outputs may alias inputs.
 *
 * <p>Holds scratch space and a per-thread field object: <b>not thread-safe</b>; create one per thread with
 * {@link CurveGroup#newOps()}. The formula methods allocate nothing; methods documented as "allocates" are for setup,
 * tests and one-off operations.
 */
public final class CurveOps {

    private final CurveGroup group;
    private final FieldOps f;
    private final int w;
    private final long[] b;
    private final long[] one;
    private final long[] t;
    // Scratch slots (offsets into t), each one field element.
    private final int s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, x3, y3, z3, z4;
    // Scratch points for scalar multiplication and subgroup checks.
    private final long[] accJac;
    private final long[] negAffine;
    private final long[] endoAffine;
    /** NAF digits of |λ| for the eigenvalue subgroup check, most significant first; null when not needed. */
    private final byte[] eigenNaf;
    private final boolean eigenNegative;

    CurveOps(CurveGroup group) {
        this.group = group;
        this.f = group.newFieldOps();
        this.w = f.width();
        this.b = group.b();
        this.one = new long[w];
        f.setOne(one, 0);
        this.t = new long[22 * w];
        int k = 0;
        s0 = k++ * w; s1 = k++ * w; s2 = k++ * w; s3 = k++ * w; s4 = k++ * w; s5 = k++ * w; s6 = k++ * w;
        s7 = k++ * w; s8 = k++ * w; s9 = k++ * w; s10 = k++ * w; s11 = k++ * w; s12 = k++ * w; s13 = k++ * w;
        // x3, y3, z3, z4 are contiguous so a finished point is one arraycopy.
        x3 = k++ * w; y3 = k++ * w; z3 = k++ * w; z4 = k++ * w;
        this.accJac = new long[3 * w];
        this.negAffine = new long[2 * w];
        this.endoAffine = new long[2 * w];
        if (group.subgroupCheck() instanceof SubgroupCheck.EigenvalueCheck e) {
            eigenNaf = naf(e.eigenvalue().abs());
            eigenNegative = e.eigenvalue().signum() < 0;
        } else {
            eigenNaf = null;
            eigenNegative = false;
        }
    }

    public CurveGroup group() {
        return group;
    }

    /** This thread's coordinate-field object. */
    public FieldOps field() {
        return f;
    }

    public int fieldWidth() {
        return w;
    }

    // ---- affine -----------------------------------------------------------------------------------------------

    public boolean isInfinityAffine(long[] p, int po) {
        return Affine.isInfinity(p, po, w);
    }

    /** r = −p (affine). */
    public void negateAffine(long[] p, int po, long[] r, int ro) {
        f.copy(p, po, r, ro);
        f.neg(p, po + w, r, ro + w);
    }

    /** y² = x³ + b, or the infinity encoding. 1M + 2S. */
    public boolean isOnCurve(long[] p, int po) {
        if (isInfinityAffine(p, po)) {
            return true;
        }
        f.sqr(p, po, t, s0);
        f.mul(t, s0, p, po, t, s0);
        f.add(t, s0, b, 0, t, s0);
        f.sqr(p, po + w, t, s1);
        return f.equal(t, s0, t, s1);
    }

    /** Affine equality (both encodings are canonical: Montgomery limbs are reduced, infinity is all zeros). */
    public boolean equalAffine(long[] p, int po, long[] q, int qo) {
        return Arrays.equals(p, po, po + 2 * w, q, qo, qo + 2 * w);
    }

    /** r = endo(p) for an {@link Endomorphism} (affine in and out; infinity maps to infinity). 2M. */
    public void applyEndomorphism(Endomorphism e, long[] p, int po, long[] r, int ro) {
        if (e.conjugate()) {
            QuadraticField q = (QuadraticField) f;
            q.conjugate(p, po, t, s0);
            q.conjugate(p, po + w, t, s1);
        } else {
            f.copy(p, po, t, s0);
            f.copy(p, po + w, t, s1);
        }
        f.mul(t, s0, e.cx(), 0, r, ro);
        f.mul(t, s1, e.cy(), 0, r, ro + w);
    }

    /**
     * Whether an affine point that is on the curve lies in the order-r subgroup, by the group's
     * {@link SubgroupCheck}: free for cofactor 1, else endo(P) == [λ]P with λ the endomorphism's eigenvalue.
     */
    public boolean isInSubgroup(long[] p, int po) {
        if (isInfinityAffine(p, po)) {
            return true;
        }
        return switch (group.subgroupCheck()) {
            case SubgroupCheck.CofactorOne c -> true;
            case SubgroupCheck.EigenvalueCheck e -> {
                mulByNaf(p, po, eigenNaf, accJac, 0);
                if (eigenNegative) {
                    negateJacobian(accJac, 0, accJac, 0);
                }
                applyEndomorphism(e.endomorphism(), p, po, endoAffine, 0);
                yield equalJacobianAffine(accJac, 0, endoAffine, 0);
            }
        };
    }

    /** The definition: [r]P == O. About 20× slower than {@link #isInSubgroup}; the reference in tests. */
    public boolean isInSubgroupSlow(long[] p, int po) {
        long[] r = new long[3 * w];
        scalarMul(p, po, group.order(), r, 0);
        return isInfinityJacobian(r, 0);
    }

    /** Null when the point is valid, else why not. {@code subgroup} false checks only the curve equation. */
    public InvalidPointException.Reason check(long[] p, int po, boolean subgroup) {
        if (!isOnCurve(p, po)) {
            return InvalidPointException.Reason.NOT_ON_CURVE;
        }
        if (subgroup && !isInSubgroup(p, po)) {
            return InvalidPointException.Reason.NOT_IN_SUBGROUP;
        }
        return null;
    }

    /** Throws {@link InvalidPointException} (message prefixed with {@code context}) unless the point is valid. */
    public void requireValid(long[] p, int po, boolean subgroup, String context) {
        InvalidPointException.Reason reason = check(p, po, subgroup);
        if (reason != null) {
            throw new InvalidPointException(reason, context + ": " + describe(reason));
        }
    }

    String describe(InvalidPointException.Reason reason) {
        return switch (reason) {
            case NOT_ON_CURVE -> "point is not on the curve " + group.name();
            case NOT_IN_SUBGROUP -> "point is on the curve but not in the prime-order subgroup of " + group.name();
            case NOT_REDUCED -> "a coordinate is not reduced (≥ the field modulus)";
            default -> reason.name().toLowerCase().replace('_', ' ');
        };
    }

    // ---- Jacobian ---------------------------------------------------------------------------------------------

    public boolean isInfinityJacobian(long[] p, int po) {
        return f.isZero(p, po + 2 * w);
    }

    public void setInfinityJacobian(long[] r, int ro) {
        Arrays.fill(r, ro, ro + 3 * w, 0L);
    }

    /** Affine → Jacobian (Z = 1, or Z = 0 for infinity). */
    public void affineToJacobian(long[] a, int ao, long[] r, int ro) {
        if (isInfinityAffine(a, ao)) {
            setInfinityJacobian(r, ro);
            return;
        }
        System.arraycopy(a, ao, r, ro, 2 * w);
        f.setOne(r, ro + 2 * w);
    }

    public void negateJacobian(long[] p, int po, long[] r, int ro) {
        f.copy(p, po, r, ro);
        f.neg(p, po + w, r, ro + w);
        f.copy(p, po + 2 * w, r, ro + 2 * w);
    }

    /** Jacobian → affine: x = X/Z², y = Y/Z³. 1I + 3M + 1S. */
    public void jacobianToAffine(long[] p, int po, long[] r, int ro) {
        if (isInfinityJacobian(p, po)) {
            Affine.setInfinity(r, ro, w);
            return;
        }
        f.inv(p, po + 2 * w, t, s0);
        f.sqr(t, s0, t, s1);
        f.mul(t, s0, t, s1, t, s0);
        f.mul(p, po, t, s1, r, ro);
        f.mul(p, po + w, t, s0, r, ro + w);
    }

    /**
     * Jacobian → affine for {@code count} points with one field inversion (Montgomery's trick: 3(n−1) extra M).
     * Allocates a prefix-product buffer of {@code count} elements.
     */
    public void batchJacobianToAffine(long[] jac, int jo, int count, long[] out, int oo) {
        long[] prefix = new long[count * w];
        long[] acc = one.clone();
        for (int i = 0; i < count; i++) {
            f.copy(acc, 0, prefix, i * w);
            int z = jo + i * 3 * w + 2 * w;
            if (!f.isZero(jac, z)) {
                f.mul(acc, 0, jac, z, acc, 0);
            }
        }
        f.inv(acc, 0, acc, 0);
        for (int i = count - 1; i >= 0; i--) {
            int p = jo + i * 3 * w;
            int r = oo + i * 2 * w;
            if (f.isZero(jac, p + 2 * w)) {
                Affine.setInfinity(out, r, w);
                continue;
            }
            f.mul(acc, 0, prefix, i * w, t, s0);      // 1/Z_i
            f.mul(acc, 0, jac, p + 2 * w, acc, 0);     // drop Z_i from the running inverse
            f.sqr(t, s0, t, s1);
            f.mul(t, s0, t, s1, t, s0);
            f.mul(jac, p + w, t, s0, out, r + w);
            f.mul(jac, p, t, s1, out, r);
        }
    }

    /** X1·Z2² == X2·Z1² and Y1·Z2³ == Y2·Z1³. */
    public boolean equalJacobian(long[] p, int po, long[] q, int qo) {
        boolean pInf = isInfinityJacobian(p, po);
        boolean qInf = isInfinityJacobian(q, qo);
        if (pInf || qInf) {
            return pInf == qInf;
        }
        f.sqr(p, po + 2 * w, t, s0);
        f.sqr(q, qo + 2 * w, t, s1);
        f.mul(p, po, t, s1, t, s2);
        f.mul(q, qo, t, s0, t, s3);
        if (!f.equal(t, s2, t, s3)) {
            return false;
        }
        f.mul(t, s0, p, po + 2 * w, t, s0);
        f.mul(t, s1, q, qo + 2 * w, t, s1);
        f.mul(p, po + w, t, s1, t, s2);
        f.mul(q, qo + w, t, s0, t, s3);
        return f.equal(t, s2, t, s3);
    }

    /** Jacobian p equals affine a: X == x·Z² and Y == y·Z³. */
    public boolean equalJacobianAffine(long[] p, int po, long[] a, int ao) {
        boolean pInf = isInfinityJacobian(p, po);
        boolean aInf = isInfinityAffine(a, ao);
        if (pInf || aInf) {
            return pInf == aInf;
        }
        f.sqr(p, po + 2 * w, t, s0);
        f.mul(a, ao, t, s0, t, s1);
        if (!f.equal(t, s1, p, po)) {
            return false;
        }
        f.mul(t, s0, p, po + 2 * w, t, s0);
        f.mul(a, ao + w, t, s0, t, s1);
        return f.equal(t, s1, p, po + w);
    }

    /** r = 2p. dbl-2009-l (EFD, a = 0): 2M + 5S. */
    public void doubleJacobian(long[] p, int po, long[] r, int ro) {
        int X = po, Y = po + w, Z = po + 2 * w;
        if (f.isZero(p, Z)) {
            setInfinityJacobian(r, ro);
            return;
        }
        int A = s0, B = s1, C = s2, D = s3, E = s4, F = s5;
        f.sqr(p, X, t, A);
        f.sqr(p, Y, t, B);
        f.sqr(t, B, t, C);
        f.add(p, X, t, B, t, D);
        f.sqr(t, D, t, D);
        f.sub(t, D, t, A, t, D);
        f.sub(t, D, t, C, t, D);
        f.dbl(t, D, t, D);                 // D = 2((X + B)² − A − C)
        f.dbl(t, A, t, E);
        f.add(t, E, t, A, t, E);           // E = 3A
        f.sqr(t, E, t, F);                 // F = E²
        f.mul(p, Y, p, Z, t, z3);
        f.dbl(t, z3, t, z3);               // Z3 = 2·Y·Z
        f.sub(t, F, t, D, t, x3);
        f.sub(t, x3, t, D, t, x3);         // X3 = F − 2D
        f.sub(t, D, t, x3, t, y3);
        f.mul(t, E, t, y3, t, y3);
        f.dbl(t, C, t, C);
        f.dbl(t, C, t, C);
        f.dbl(t, C, t, C);
        f.sub(t, y3, t, C, t, y3);         // Y3 = E·(D − X3) − 8C
        System.arraycopy(t, x3, r, ro, 3 * w);
    }

    /** r = p + q (Jacobian). add-2007-bl (EFD): 11M + 5S; falls back to doubling when p = q. */
    public void addJacobian(long[] p, int po, long[] q, int qo, long[] r, int ro) {
        if (isInfinityJacobian(p, po)) {
            System.arraycopy(q, qo, r, ro, 3 * w);
            return;
        }
        if (isInfinityJacobian(q, qo)) {
            System.arraycopy(p, po, r, ro, 3 * w);
            return;
        }
        int Z1Z1 = s0, Z2Z2 = s1, U1 = s2, U2 = s3, S1 = s4, S2 = s5, H = s6, R = s7, I = s8, J = s9, V = s10;
        int X1 = po, Y1 = po + w, Z1 = po + 2 * w, X2 = qo, Y2 = qo + w, Z2 = qo + 2 * w;
        f.sqr(p, Z1, t, Z1Z1);
        f.sqr(q, Z2, t, Z2Z2);
        f.mul(p, X1, t, Z2Z2, t, U1);
        f.mul(q, X2, t, Z1Z1, t, U2);
        f.mul(p, Y1, q, Z2, t, S1);
        f.mul(t, S1, t, Z2Z2, t, S1);
        f.mul(q, Y2, p, Z1, t, S2);
        f.mul(t, S2, t, Z1Z1, t, S2);
        f.sub(t, U2, t, U1, t, H);
        f.sub(t, S2, t, S1, t, R);
        if (f.isZero(t, H)) {
            if (f.isZero(t, R)) {
                doubleJacobian(p, po, r, ro);
            } else {
                setInfinityJacobian(r, ro);
            }
            return;
        }
        f.dbl(t, H, t, I);
        f.sqr(t, I, t, I);                 // I = (2H)²
        f.mul(t, H, t, I, t, J);           // J = H·I
        f.dbl(t, R, t, R);                 // r = 2(S2 − S1)
        f.mul(t, U1, t, I, t, V);          // V = U1·I
        f.add(p, Z1, q, Z2, t, z3);
        f.sqr(t, z3, t, z3);
        f.sub(t, z3, t, Z1Z1, t, z3);
        f.sub(t, z3, t, Z2Z2, t, z3);
        f.mul(t, z3, t, H, t, z3);         // Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H
        f.sqr(t, R, t, x3);
        f.sub(t, x3, t, J, t, x3);
        f.sub(t, x3, t, V, t, x3);
        f.sub(t, x3, t, V, t, x3);         // X3 = r² − J − 2V
        f.sub(t, V, t, x3, t, y3);
        f.mul(t, R, t, y3, t, y3);
        f.mul(t, S1, t, J, t, S1);
        f.dbl(t, S1, t, S1);
        f.sub(t, y3, t, S1, t, y3);        // Y3 = r·(V − X3) − 2·S1·J
        System.arraycopy(t, x3, r, ro, 3 * w);
    }

    /** r = p + a with p Jacobian and a affine. madd-2007-bl (EFD): 7M + 4S; doubling when p = a. */
    public void addAffineToJacobian(long[] p, int po, long[] a, int ao, long[] r, int ro) {
        if (isInfinityAffine(a, ao)) {
            System.arraycopy(p, po, r, ro, 3 * w);
            return;
        }
        if (isInfinityJacobian(p, po)) {
            System.arraycopy(a, ao, r, ro, 2 * w);
            f.setOne(r, ro + 2 * w);
            return;
        }
        int Z1Z1 = s0, U2 = s1, S2 = s2, H = s3, R = s4, HH = s5, I = s6, J = s7, V = s8;
        int X1 = po, Y1 = po + w, Z1 = po + 2 * w;
        f.sqr(p, Z1, t, Z1Z1);
        f.mul(a, ao, t, Z1Z1, t, U2);
        f.mul(a, ao + w, p, Z1, t, S2);
        f.mul(t, S2, t, Z1Z1, t, S2);
        f.sub(t, U2, p, X1, t, H);
        f.sub(t, S2, p, Y1, t, R);
        if (f.isZero(t, H)) {
            if (f.isZero(t, R)) {
                doubleJacobian(p, po, r, ro);
            } else {
                setInfinityJacobian(r, ro);
            }
            return;
        }
        f.sqr(t, H, t, HH);
        f.dbl(t, HH, t, I);
        f.dbl(t, I, t, I);                 // I = 4·HH
        f.mul(t, H, t, I, t, J);           // J = H·I
        f.dbl(t, R, t, R);                 // r = 2(S2 − Y1)
        f.mul(p, X1, t, I, t, V);          // V = X1·I
        f.add(p, Z1, t, H, t, z3);
        f.sqr(t, z3, t, z3);
        f.sub(t, z3, t, Z1Z1, t, z3);
        f.sub(t, z3, t, HH, t, z3);        // Z3 = (Z1 + H)² − Z1Z1 − HH
        f.sqr(t, R, t, x3);
        f.sub(t, x3, t, J, t, x3);
        f.sub(t, x3, t, V, t, x3);
        f.sub(t, x3, t, V, t, x3);         // X3 = r² − J − 2V
        f.sub(t, V, t, x3, t, y3);
        f.mul(t, R, t, y3, t, y3);
        f.mul(p, Y1, t, J, t, J);
        f.dbl(t, J, t, J);
        f.sub(t, y3, t, J, t, y3);         // Y3 = r·(V − X3) − 2·Y1·J
        System.arraycopy(t, x3, r, ro, 3 * w);
    }

    // ---- XYZZ -------------------------------------------------------------------------------------------------

    public boolean isInfinityXyzz(long[] p, int po) {
        return f.isZero(p, po + 2 * w);
    }

    public void setInfinityXyzz(long[] r, int ro) {
        Arrays.fill(r, ro, ro + 4 * w, 0L);
    }

    /** XYZZ → affine: x = X/ZZ, y = Y/ZZZ with one inversion (1/Z = ZZ/ZZZ). 1I + 4M + 1S. */
    public void xyzzToAffine(long[] p, int po, long[] r, int ro) {
        if (isInfinityXyzz(p, po)) {
            Affine.setInfinity(r, ro, w);
            return;
        }
        f.inv(p, po + 3 * w, t, s0);           // 1/ZZZ
        f.mul(t, s0, p, po + 2 * w, t, s1);   // 1/Z = ZZ/ZZZ
        f.sqr(t, s1, t, s1);                  // 1/ZZ
        f.mul(p, po + w, t, s0, r, ro + w);
        f.mul(p, po, t, s1, r, ro);
    }

    /** XYZZ → Jacobian with Z = ZZZ (so Z² = ZZ³): (X·ZZ², Y·ZZZ², ZZZ). 2M + 2S. */
    public void xyzzToJacobian(long[] p, int po, long[] r, int ro) {
        if (isInfinityXyzz(p, po)) {
            setInfinityJacobian(r, ro);
            return;
        }
        f.sqr(p, po + 2 * w, t, x3);
        f.mul(t, x3, p, po, t, x3);
        f.sqr(p, po + 3 * w, t, y3);
        f.mul(t, y3, p, po + w, t, y3);
        f.copy(p, po + 3 * w, t, z3);
        System.arraycopy(t, x3, r, ro, 3 * w);
    }

    /** r = 2a for affine a, as XYZZ. mdbl-2008-s (EFD, a = 0): 3M + 2S. */
    public void doubleAffineToXyzz(long[] a, int ao, long[] r, int ro) {
        if (isInfinityAffine(a, ao)) {
            setInfinityXyzz(r, ro);
            return;
        }
        int U = s0, V = s1, W = s2, S = s3, M = s4;
        f.dbl(a, ao + w, t, U);            // U = 2y
        f.sqr(t, U, t, V);                 // V = U²
        f.mul(t, U, t, V, t, W);           // W = U·V
        f.mul(a, ao, t, V, t, S);          // S = x·V
        f.sqr(a, ao, t, M);
        f.dbl(t, M, t, s5);
        f.add(t, M, t, s5, t, M);          // M = 3x²
        f.sqr(t, M, t, x3);
        f.sub(t, x3, t, S, t, x3);
        f.sub(t, x3, t, S, t, x3);         // X3 = M² − 2S
        f.sub(t, S, t, x3, t, y3);
        f.mul(t, M, t, y3, t, y3);
        f.mul(t, W, a, ao + w, t, s5);
        f.sub(t, y3, t, s5, t, y3);        // Y3 = M·(S − X3) − W·y
        f.copy(t, V, t, z3);               // ZZ3 = V
        f.copy(t, W, t, z4);               // ZZZ3 = W
        System.arraycopy(t, x3, r, ro, 4 * w);
    }

    /**
     * r = p + a with p XYZZ and a affine (the bucket accumulation of Pippenger). madd-2008-s (EFD): 8M + 2S;
     * doubling (mdbl-2008-s) when p = a, infinity when p = −a.
     */
    public void addAffineToXyzz(long[] p, int po, long[] a, int ao, long[] r, int ro) {
        if (isInfinityXyzz(p, po)) {
            if (isInfinityAffine(a, ao)) {
                setInfinityXyzz(r, ro);
                return;
            }
            System.arraycopy(a, ao, r, ro, 2 * w);
            f.setOne(r, ro + 2 * w);
            f.setOne(r, ro + 3 * w);
            return;
        }
        if (isInfinityAffine(a, ao)) {
            System.arraycopy(p, po, r, ro, 4 * w);
            return;
        }
        int U2 = s0, S2 = s1, P = s2, R = s3, PP = s4, PPP = s5, Q = s6;
        int X1 = po, Y1 = po + w, ZZ1 = po + 2 * w, ZZZ1 = po + 3 * w;
        f.mul(a, ao, p, ZZ1, t, U2);       // U2 = x2·ZZ1
        f.mul(a, ao + w, p, ZZZ1, t, S2);  // S2 = y2·ZZZ1
        f.sub(t, U2, p, X1, t, P);         // P = U2 − X1
        f.sub(t, S2, p, Y1, t, R);         // R = S2 − Y1
        if (f.isZero(t, P)) {
            if (f.isZero(t, R)) {
                doubleAffineToXyzz(a, ao, r, ro);
            } else {
                setInfinityXyzz(r, ro);
            }
            return;
        }
        f.sqr(t, P, t, PP);                // PP = P²
        f.mul(t, P, t, PP, t, PPP);        // PPP = P·PP
        f.mul(p, X1, t, PP, t, Q);         // Q = X1·PP
        f.sqr(t, R, t, x3);
        f.sub(t, x3, t, PPP, t, x3);
        f.sub(t, x3, t, Q, t, x3);
        f.sub(t, x3, t, Q, t, x3);         // X3 = R² − PPP − 2Q
        f.sub(t, Q, t, x3, t, y3);
        f.mul(t, R, t, y3, t, y3);
        f.mul(p, Y1, t, PPP, t, s7);
        f.sub(t, y3, t, s7, t, y3);        // Y3 = R·(Q − X3) − Y1·PPP
        f.mul(p, ZZ1, t, PP, t, z3);       // ZZ3 = ZZ1·PP
        f.mul(p, ZZZ1, t, PPP, t, z4);     // ZZZ3 = ZZZ1·PPP
        System.arraycopy(t, x3, r, ro, 4 * w);
    }

    /** r = 2p (XYZZ). dbl-2008-s-1 (EFD, a = 0): 6M + 3S. */
    public void doubleXyzz(long[] p, int po, long[] r, int ro) {
        if (isInfinityXyzz(p, po)) {
            setInfinityXyzz(r, ro);
            return;
        }
        int U = s0, V = s1, W = s2, S = s3, M = s4;
        int X1 = po, Y1 = po + w, ZZ1 = po + 2 * w, ZZZ1 = po + 3 * w;
        f.dbl(p, Y1, t, U);                // U = 2·Y1
        f.sqr(t, U, t, V);                 // V = U²
        f.mul(t, U, t, V, t, W);           // W = U·V
        f.mul(p, X1, t, V, t, S);          // S = X1·V
        f.sqr(p, X1, t, M);
        f.dbl(t, M, t, s5);
        f.add(t, M, t, s5, t, M);          // M = 3·X1²
        f.sqr(t, M, t, x3);
        f.sub(t, x3, t, S, t, x3);
        f.sub(t, x3, t, S, t, x3);         // X3 = M² − 2S
        f.sub(t, S, t, x3, t, y3);
        f.mul(t, M, t, y3, t, y3);
        f.mul(t, W, p, Y1, t, s5);
        f.sub(t, y3, t, s5, t, y3);        // Y3 = M·(S − X3) − W·Y1
        f.mul(t, V, p, ZZ1, t, z3);        // ZZ3 = V·ZZ1
        f.mul(t, W, p, ZZZ1, t, z4);       // ZZZ3 = W·ZZZ1
        System.arraycopy(t, x3, r, ro, 4 * w);
    }

    /** r = p + q (XYZZ). add-2008-s (EFD): 12M + 2S; doubling when p = q. */
    public void addXyzz(long[] p, int po, long[] q, int qo, long[] r, int ro) {
        if (isInfinityXyzz(p, po)) {
            System.arraycopy(q, qo, r, ro, 4 * w);
            return;
        }
        if (isInfinityXyzz(q, qo)) {
            System.arraycopy(p, po, r, ro, 4 * w);
            return;
        }
        int U1 = s0, U2 = s1, S1 = s2, S2 = s3, P = s4, R = s5, PP = s6, PPP = s7, Q = s8;
        int X1 = po, Y1 = po + w, ZZ1 = po + 2 * w, ZZZ1 = po + 3 * w;
        int X2 = qo, Y2 = qo + w, ZZ2 = qo + 2 * w, ZZZ2 = qo + 3 * w;
        f.mul(p, X1, q, ZZ2, t, U1);
        f.mul(q, X2, p, ZZ1, t, U2);
        f.mul(p, Y1, q, ZZZ2, t, S1);
        f.mul(q, Y2, p, ZZZ1, t, S2);
        f.sub(t, U2, t, U1, t, P);
        f.sub(t, S2, t, S1, t, R);
        if (f.isZero(t, P)) {
            if (f.isZero(t, R)) {
                doubleXyzz(p, po, r, ro);
            } else {
                setInfinityXyzz(r, ro);
            }
            return;
        }
        f.sqr(t, P, t, PP);
        f.mul(t, P, t, PP, t, PPP);
        f.mul(t, U1, t, PP, t, Q);         // Q = U1·PP
        f.sqr(t, R, t, x3);
        f.sub(t, x3, t, PPP, t, x3);
        f.sub(t, x3, t, Q, t, x3);
        f.sub(t, x3, t, Q, t, x3);         // X3 = R² − PPP − 2Q
        f.sub(t, Q, t, x3, t, y3);
        f.mul(t, R, t, y3, t, y3);
        f.mul(t, S1, t, PPP, t, s9);
        f.sub(t, y3, t, s9, t, y3);        // Y3 = R·(Q − X3) − S1·PPP
        f.mul(p, ZZ1, q, ZZ2, t, z3);
        f.mul(t, z3, t, PP, t, z3);        // ZZ3 = ZZ1·ZZ2·PP
        f.mul(p, ZZZ1, q, ZZZ2, t, z4);
        f.mul(t, z4, t, PPP, t, z4);       // ZZZ3 = ZZZ1·ZZZ2·PPP
        System.arraycopy(t, x3, r, ro, 4 * w);
    }

    // ---- scalar multiplication --------------------------------------------------------------------------------

    /**
     * r (Jacobian) = [k]a (a affine) for any integer k, by width-4 wNAF (odd multiples ±P..±7P in Jacobian): about
     * bits·(1 doubling) + bits/5 additions. k need not be reduced (EIP-2537 allows k ≥ r). Allocates its table.
     */
    public void scalarMul(long[] a, int ao, BigInteger k, long[] r, int ro) {
        if (k.signum() == 0 || isInfinityAffine(a, ao)) {
            setInfinityJacobian(r, ro);
            return;
        }
        int jw = 3 * w;
        long[] table = new long[4 * jw];          // P, 3P, 5P, 7P
        affineToJacobian(a, ao, table, 0);
        long[] twoP = new long[jw];
        doubleJacobian(table, 0, twoP, 0);
        for (int i = 1; i < 4; i++) {
            addJacobian(table, (i - 1) * jw, twoP, 0, table, i * jw);
        }
        byte[] digits = wnaf(k.abs(), 4);
        long[] acc = new long[jw];
        long[] neg = new long[jw];
        for (byte d : digits) {
            doubleJacobian(acc, 0, acc, 0);
            if (d > 0) {
                addJacobian(acc, 0, table, (d >> 1) * jw, acc, 0);
            } else if (d < 0) {
                negateJacobian(table, (-d >> 1) * jw, neg, 0);
                addJacobian(acc, 0, neg, 0, acc, 0);
            }
        }
        if (k.signum() < 0) {
            negateJacobian(acc, 0, acc, 0);
        }
        System.arraycopy(acc, 0, r, ro, jw);
    }

    /** Allocating convenience: [k]a as a new affine point. */
    public long[] mulAffine(long[] a, BigInteger k) {
        long[] j = new long[3 * w];
        scalarMul(a, 0, k, j, 0);
        long[] r = new long[2 * w];
        jacobianToAffine(j, 0, r, 0);
        return r;
    }

    /** Allocating convenience: a + b of two affine points as a new affine point. */
    public long[] addAffine(long[] a, long[] b) {
        long[] j = new long[3 * w];
        affineToJacobian(a, 0, j, 0);
        addAffineToJacobian(j, 0, b, 0, j, 0);
        long[] r = new long[2 * w];
        jacobianToAffine(j, 0, r, 0);
        return r;
    }

    /** r (Jacobian) = [Σ dᵢ2ⁱ]a for NAF digits (most significant first) with mixed additions; no allocation. */
    private void mulByNaf(long[] a, int ao, byte[] naf, long[] r, int ro) {
        negateAffine(a, ao, negAffine, 0);
        setInfinityJacobian(r, ro);
        for (byte d : naf) {
            doubleJacobian(r, ro, r, ro);
            if (d > 0) {
                addAffineToJacobian(r, ro, a, ao, r, ro);
            } else if (d < 0) {
                addAffineToJacobian(r, ro, negAffine, 0, r, ro);
            }
        }
    }

    /** Non-adjacent form of k ≥ 0, most significant digit first (digits in {−1, 0, 1}). */
    static byte[] naf(BigInteger k) {
        return wnaf(k, 2);
    }

    /** Width-{@code width} NAF of k ≥ 0, most significant digit first: odd digits in (−2^(w−1), 2^(w−1)). */
    static byte[] wnaf(BigInteger k, int width) {
        byte[] lsbFirst = new byte[k.bitLength() + 1];
        int modulus = 1 << width;
        int n = 0;
        while (k.signum() > 0) {
            int d = 0;
            if (k.testBit(0)) {
                d = k.intValue() & (modulus - 1);
                if (d >= modulus / 2) {
                    d -= modulus;
                }
                k = k.subtract(BigInteger.valueOf(d));
            }
            lsbFirst[n++] = (byte) d;
            k = k.shiftRight(1);
        }
        byte[] msbFirst = new byte[n];
        for (int i = 0; i < n; i++) {
            msbFirst[i] = lsbFirst[n - 1 - i];
        }
        return msbFirst;
    }
}
