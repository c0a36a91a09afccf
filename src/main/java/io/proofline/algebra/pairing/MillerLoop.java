package io.proofline.algebra.pairing;

import io.proofline.algebra.curve.Twist;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;
import io.proofline.algebra.tower.Fq12;
import io.proofline.algebra.tower.Tower;

/**
 * The Miller loop of the optimal ate pairing, for one or several pairs at once (the pairs share every squaring of
 * the accumulator). Q runs on the twist E'(𝔽p²) in homogeneous projective coordinates T = (X : Y : Z), x = X/Z,
 * y = Y/Z; each step returns the line through the points, evaluated at P ∈ E(𝔽p), as three 𝔽p² coefficients that
 * {@link Fq12#mulBy034} (D-type) or {@link Fq12#mulBy014} (M-type) multiply in. Step formulas: Costello, Lange,
 * Naehrig, "Faster pairing computations on curves with high-degree twists" (PKC 2010), in the form of Aranha,
 * Karabina, Longa, Gebotys, López, "Faster explicit formulas for computing pairings over ordinary curves"
 * (EUROCRYPT 2011, §4); lines are scaled by factors in proper subfields, which the final exponentiation removes.
 *
 * <p>Per-thread: scratch is preallocated (the per-pair workspace grows with the largest batch seen), so a loop
 * allocates nothing.
 */
final class MillerLoop {

    private final PairingCurve curve;
    private final PrimeField fp;
    private final QuadraticField f2;
    private final Fq12 f12;
    private final int n;
    private final int e;
    private final int[] digits;
    private final long[] threeB;
    /** BN only: ξ^((p−1)/3), ξ^((p−1)/2), ξ^((p²−1)/3), ξ^((p²−1)/2): Frobenius on the D-type twist. */
    private final long[] g12, g13, g22, g23;

    /** Per-pair workspace; see the offsets below. */
    private long[] work;
    private final int stride;
    private final int oT, oQx, oQy, oNegQy, oXp, oYp, oNegXp, oNegYp, oTmpX, oTmpY;
    private final long[] line;
    private final long[] s;

    MillerLoop(PairingCurve curve, Fq12 f12) {
        this.curve = curve;
        this.fp = curve.fq();
        this.f12 = f12;
        this.f2 = f12.sextic().quadratic();
        this.n = fp.limbs();
        this.e = 2 * n;
        this.digits = curve.loopDigits();
        this.threeB = curve.twistB();
        f2.add(threeB, 0, threeB, 0, threeB, 0);
        f2.add(threeB, 0, curve.twistB(), 0, threeB, 0);
        Tower tower = curve.tower();
        this.g12 = tower.frobeniusCoefficient(1, 2);
        this.g13 = tower.frobeniusCoefficient(1, 3);
        this.g22 = tower.frobeniusCoefficient(2, 2);
        this.g23 = tower.frobeniusCoefficient(2, 3);
        oT = 0;
        oQx = 3 * e;
        oQy = 4 * e;
        oNegQy = 5 * e;
        oTmpX = 6 * e;
        oTmpY = 7 * e;
        oXp = 8 * e;
        oYp = oXp + n;
        oNegXp = oXp + 2 * n;
        oNegYp = oXp + 3 * n;
        stride = 8 * e + 4 * n;
        this.work = new long[4 * stride];
        this.line = new long[3 * e];
        this.s = new long[12 * e];
    }

    /**
     * r = the Miller loop value ∏ f_{Qᵢ}(Pᵢ) for {@code count} pairs: G1 points (x ‖ y, 2·limbs longs each) from
     * {@code g1Off}, G2 points (x ‖ y in 𝔽p², 4·limbs longs each) from {@code g2Off}, affine, Montgomery form. A pair
     * with either point at infinity (all zeros) contributes 1. Inputs are assumed on the curves and in the subgroups.
     */
    void run(long[] g1, int g1Off, long[] g2, int g2Off, int count, long[] r, int ro) {
        if (work.length < count * stride) {
            work = new long[count * stride];
        }
        int active = 0;
        for (int i = 0; i < count; i++) {
            int p = g1Off + i * 2 * n, q = g2Off + i * 2 * e;
            if (isZero(g1, p, 2 * n) || isZero(g2, q, 2 * e)) {
                continue;
            }
            load(active++, g1, p, g2, q);
        }
        f12.setOne(r, ro);
        if (active == 0) {
            return;
        }
        for (int i = 1; i < digits.length; i++) {
            if (i > 1) {
                f12.sqr(r, ro, r, ro);
            }
            for (int k = 0; k < active; k++) {
                doubleStep(k * stride);
                mulByLine(r, ro);
            }
            if (digits[i] != 0) {
                for (int k = 0; k < active; k++) {
                    int o = k * stride;
                    addStep(o, o + oQx, o + (digits[i] > 0 ? oQy : oNegQy));
                    mulByLine(r, ro);
                }
            }
        }
        if (curve.family() == PairingCurve.Family.BN) {
            for (int k = 0; k < active; k++) {
                frobeniusSteps(k * stride, r, ro);
            }
        }
        if (curve.conjugatesLoop()) {
            f12.conjugate(r, ro, r, ro);
        }
    }

    private void load(int k, long[] g1, int p, long[] g2, int q) {
        int o = k * stride;
        System.arraycopy(g2, q, work, o + oQx, 2 * e);
        System.arraycopy(g2, q, work, o + oT, 2 * e);
        f2.setOne(work, o + oT + 2 * e);
        f2.neg(work, o + oQy, work, o + oNegQy);
        System.arraycopy(g1, p, work, o + oXp, 2 * n);
        fp.neg(work, o + oXp, work, o + oNegXp);
        fp.neg(work, o + oYp, work, o + oNegYp);
    }

    /**
     * The two extra lines of the BN optimal ate pairing (Vercauteren 2010): with Q1 = π(Q) and Q2 = −π²(Q) on the
     * twist, add the lines through (T, Q1) and (T + Q1, Q2). On a D-type twist π(x, y) = (x̄·ξ^((p−1)/3),
     * ȳ·ξ^((p−1)/2)) and π²(x, y) = (x·ξ^((p²−1)/3), y·ξ^((p²−1)/2)).
     */
    private void frobeniusSteps(int o, long[] r, int ro) {
        f2.conjugate(work, o + oQx, work, o + oTmpX);
        f2.mul(work, o + oTmpX, g12, 0, work, o + oTmpX);
        f2.conjugate(work, o + oQy, work, o + oTmpY);
        f2.mul(work, o + oTmpY, g13, 0, work, o + oTmpY);
        addStep(o, o + oTmpX, o + oTmpY);
        mulByLine(r, ro);
        f2.mul(work, o + oQx, g22, 0, work, o + oTmpX);
        f2.mul(work, o + oNegQy, g23, 0, work, o + oTmpY);
        addStep(o, o + oTmpX, o + oTmpY);
        mulByLine(r, ro);
    }

    private void mulByLine(long[] f, int fo) {
        if (curve.twist() == Twist.D) {
            f12.mulBy034(f, fo, line, 0, f, fo);
        } else {
            f12.mulBy014(f, fo, line, 0, f, fo);
        }
    }

    /**
     * T ← 2T and the tangent line at T (Aranha et al. 2011, §4, doubling on y² = x³ + b'), with the new point scaled
     * by 4 to avoid halvings: A = XY, B = Y², C = Z², E = 3b'C, F = 3E, H = (Y + Z)² − B − C, I = E − B, J = X²;
     * X₃ = 2A(B − F), Y₃ = (B + F)² − 12E², Z₃ = 4BH. Line (D-type): −H·y_P + 3J·x_P·w + I·w³; (M-type, times w³):
     * I + 3J·x_P·w² − H·y_P·w³. Cost 3M₂ + 6S₂ + 1M₂ by b' + 4M.
     */
    private void doubleStep(int o) {
        int x = o + oT, y = x + e, z = y + e;
        int a = 0, b = e, c = 2 * e, ee = 3 * e, f = 4 * e, h = 5 * e, i = 6 * e, j = 7 * e, t1 = 8 * e, t2 = 9 * e;
        f2.mul(work, x, work, y, s, a);
        f2.sqr(work, y, s, b);
        f2.sqr(work, z, s, c);
        f2.mul(s, c, threeB, 0, s, ee);
        f2.dbl(s, ee, s, f);
        f2.add(s, f, s, ee, s, f);
        f2.add(work, y, work, z, s, h);
        f2.sqr(s, h, s, h);
        f2.sub(s, h, s, b, s, h);
        f2.sub(s, h, s, c, s, h);
        f2.sub(s, ee, s, b, s, i);
        f2.sqr(work, x, s, j);
        f2.dbl(s, j, s, t1);
        f2.add(s, j, s, t1, s, j); // 3X²

        f2.sub(s, b, s, f, s, t1);
        f2.mul(s, a, s, t1, work, x);
        f2.dbl(work, x, work, x);
        f2.add(s, b, s, f, s, t1);
        f2.sqr(s, t1, s, t1);
        f2.sqr(s, ee, s, t2);
        f2.dbl(s, t2, s, t2);
        f2.dbl(s, t2, s, t2); // 4E²
        f2.sub(s, t1, s, t2, s, t1);
        f2.sub(s, t1, s, t2, s, t1);
        f2.sub(s, t1, s, t2, work, y);
        f2.mul(s, b, s, h, work, z);
        f2.dbl(work, z, work, z);
        f2.dbl(work, z, work, z);

        if (curve.twist() == Twist.D) {
            f2.mulByBase(s, h, work, o + oNegYp, line, 0);
            f2.mulByBase(s, j, work, o + oXp, line, e);
            System.arraycopy(s, i, line, 2 * e, e);
        } else {
            System.arraycopy(s, i, line, 0, e);
            f2.mulByBase(s, j, work, o + oXp, line, e);
            f2.mulByBase(s, h, work, o + oNegYp, line, 2 * e);
        }
    }

    /**
     * T ← T + Q for affine Q = (x₂, y₂) and the line through them (Aranha et al. 2011, §4, mixed addition):
     * θ = Y − y₂Z, λ = X − x₂Z, C = θ², D = λ², E = λD, F = ZC, G = XD, H = E + F − 2G; X₃ = λH,
     * Y₃ = θ(G − H) − YE, Z₃ = ZE. Line (D-type): λ·y_P − θ·x_P·w + (θx₂ − λy₂)·w³; (M-type, times w³):
     * (θx₂ − λy₂) − θ·x_P·w² + λ·y_P·w³. Cost 11M₂ + 2S₂ + 4M. Q ≠ ±T is assumed (true in the loop for points of
     * order r).
     */
    private void addStep(int o, int qx, int qy) {
        int x = o + oT, y = x + e, z = y + e;
        int th = 0, la = e, c = 2 * e, d = 3 * e, ee = 4 * e, f = 5 * e, g = 6 * e, h = 7 * e, t1 = 8 * e, lc = 9 * e;
        f2.mul(work, qy, work, z, s, t1);
        f2.sub(work, y, s, t1, s, th);
        f2.mul(work, qx, work, z, s, t1);
        f2.sub(work, x, s, t1, s, la);
        // line constant θx₂ − λy₂ (before T changes)
        f2.mul(s, th, work, qx, s, lc);
        f2.mul(s, la, work, qy, s, t1);
        f2.sub(s, lc, s, t1, s, lc);

        f2.sqr(s, th, s, c);
        f2.sqr(s, la, s, d);
        f2.mul(s, la, s, d, s, ee);
        f2.mul(work, z, s, c, s, f);
        f2.mul(work, x, s, d, s, g);
        f2.add(s, ee, s, f, s, h);
        f2.sub(s, h, s, g, s, h);
        f2.sub(s, h, s, g, s, h);
        f2.mul(s, la, s, h, work, x);
        f2.sub(s, g, s, h, s, t1);
        f2.mul(s, th, s, t1, s, t1);
        f2.mul(work, y, s, ee, s, g); // G is no longer needed
        f2.sub(s, t1, s, g, work, y);
        f2.mul(work, z, s, ee, work, z);

        if (curve.twist() == Twist.D) {
            f2.mulByBase(s, la, work, o + oYp, line, 0);
            f2.mulByBase(s, th, work, o + oNegXp, line, e);
            System.arraycopy(s, lc, line, 2 * e, e);
        } else {
            System.arraycopy(s, lc, line, 0, e);
            f2.mulByBase(s, th, work, o + oNegXp, line, e);
            f2.mulByBase(s, la, work, o + oYp, line, 2 * e);
        }
    }

    private static boolean isZero(long[] a, int off, int len) {
        long acc = 0;
        for (int i = 0; i < len; i++) {
            acc |= a[off + i];
        }
        return acc == 0;
    }
}
