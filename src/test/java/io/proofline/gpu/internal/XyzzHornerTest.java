package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.selftest.ReferenceG1;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The host's Horner step over XYZZ window sums, against the Jacobian reference: Σ 2^(c·w)·k_w·G + k_e·G. */
class XyzzHornerTest {

    @Test
    void combinesWindowsLikeTheReference() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        for (GpuCurve curve : GpuCurve.values()) {
            ReferenceG1 g1 = ReferenceG1.of(curve);
            PrimeField fq = curve.fq();
            PrimeField fr = curve.fr();
            int w = fq.limbs();
            int c = 13;
            int windows = 20;
            long[] g = g1.fromAffine(g1.generator());
            long[] sums = new long[windows * 4 * w];
            BigInteger log = BigInteger.ZERO;
            for (int i = 0; i < windows; i++) {
                // windows 7 and 9 are empty (infinity): the chain must carry through them
                BigInteger k = i == 7 ? BigInteger.ZERO : fr.toBigInteger(fr.random(random));
                if (i == 9) {
                    k = BigInteger.ZERO;
                }
                System.arraycopy(xyzz(g1, fq, g1.toAffine(g1.multiply(g, k)), random), 0, sums, i * 4 * w, 4 * w);
                log = log.add(k.shiftLeft(c * i));
            }
            BigInteger e = fr.toBigInteger(fr.random(random));
            long[] extra = xyzz(g1, fq, g1.toAffine(g1.multiply(g, e)), random);
            long[] got = new XyzzHorner(fq).combine(sums, windows, c, extra);
            long[] want = g1.toAffine(g1.multiply(g, log.add(e).mod(fr.modulus())));
            assertArrayEquals(want, g1.affineFromXyzz(got), curve + " seed=" + seed);
        }
    }

    /** Over Fq2 (G2), with GpuMsm.toAffine's inversion: Σ 2^(c·w)·k_w·G2 + k_e·G2, against the CPU's G2 group. */
    @Test
    void combinesG2WindowsLikeTheCpuGroup() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        for (GpuCurve curve : GpuCurve.values()) {
            GpuGroup group = GpuGroup.g2(curve);
            CurveGroup g2 = curve.snarkCurve().g2();
            CurveOps ops = g2.newOps();
            FieldOps f2 = group.coordinateField();
            PrimeField fr = curve.fr();
            int w = f2.width();
            int c = 11;
            int windows = 6;
            long[] sums = new long[windows * 4 * w];
            BigInteger log = BigInteger.ZERO;
            for (int i = 0; i < windows; i++) {
                BigInteger k = i == 2 ? BigInteger.ZERO : fr.toBigInteger(fr.random(random));
                System.arraycopy(xyzz(f2, curve.fq(), ops.mulAffine(g2.generatorCopy(), k), random), 0, sums, i * 4 * w, 4 * w);
                log = log.add(k.shiftLeft(c * i));
            }
            BigInteger e = fr.toBigInteger(fr.random(random));
            long[] extra = xyzz(f2, curve.fq(), ops.mulAffine(g2.generatorCopy(), e), random);
            long[] got = GpuMsm.toAffine(f2, new XyzzHorner(f2).combine(sums, windows, c, extra));
            long[] want = ops.mulAffine(g2.generatorCopy(), log.add(e).mod(fr.modulus()));
            assertArrayEquals(want, got, curve + " G2 seed=" + seed);
        }
    }

    /** An XYZZ representative over a coordinate field of {@code base}'s elements, random scale λ ≠ 0. */
    private static long[] xyzz(FieldOps f, PrimeField base, long[] affine, SplittableRandom random) {
        int w = f.width();
        long[] p = new long[4 * w];
        if (f.isZero(affine, 0) && f.isZero(affine, w)) {
            return p;
        }
        long[] l = new long[w];
        for (int i = 0; i < w; i += base.limbs()) {
            System.arraycopy(base.random(random), 0, l, i, base.limbs());
        }
        long[] l2 = new long[w];
        long[] l3 = new long[w];
        f.mul(l, 0, l, 0, l2, 0);
        f.mul(l2, 0, l, 0, l3, 0);
        f.mul(affine, 0, l2, 0, p, 0);
        f.mul(affine, w, l3, 0, p, w);
        System.arraycopy(l2, 0, p, 2 * w, w);
        System.arraycopy(l3, 0, p, 3 * w, w);
        return p;
    }

    /** An XYZZ representative of an affine point with a random scale λ: (xλ², yλ³, λ², λ³). */
    private static long[] xyzz(ReferenceG1 g1, PrimeField fq, long[] affine, SplittableRandom random) {
        int w = fq.limbs();
        long[] p = new long[4 * w];
        if (fq.isZero(affine, 0) && fq.isZero(affine, w)) {
            return p;
        }
        long[] l = fq.random(random);
        long[] l2 = fq.mul(l, l);
        long[] l3 = fq.mul(l2, l);
        fq.mul(affine, 0, l2, 0, p, 0);
        fq.mul(affine, w, l3, 0, p, w);
        System.arraycopy(l2, 0, p, 2 * w, w);
        System.arraycopy(l3, 0, p, 3 * w, w);
        return p;
    }
}
