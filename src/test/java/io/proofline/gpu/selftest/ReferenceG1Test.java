package io.proofline.gpu.selftest;

import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.GpuCurve;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CPU G1 reference and the known-answer MSM inputs the GPU is checked against. */
class ReferenceG1Test {

    @Test
    void generatorIsOnTheCurveAndHasOrderR() {
        for (GpuCurve curve : GpuCurve.values()) {
            ReferenceG1 g1 = ReferenceG1.of(curve);
            long[] g = g1.generator();
            assertTrue(g1.isOnCurve(g), curve + " generator on curve");
            long[] rg = g1.multiply(g1.fromAffine(g), curve.fr().modulus());
            assertTrue(g1.isInfinity(rg), curve + " r·G = O");
        }
    }

    @Test
    void additionAgreesWithScalarMultiplication() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        for (GpuCurve curve : GpuCurve.values()) {
            ReferenceG1 g1 = ReferenceG1.of(curve);
            PrimeField fr = curve.fr();
            long[] g = g1.fromAffine(g1.generator());
            BigInteger a = fr.toBigInteger(fr.random(random));
            BigInteger b = fr.toBigInteger(fr.random(random));
            long[] sum = g1.add(g1.multiply(g, a), g1.multiply(g, b));
            long[] direct = g1.multiply(g, a.add(b).mod(fr.modulus()));
            assertArrayEquals(g1.toAffine(direct), g1.toAffine(sum), curve + " aG + bG = (a+b)G, seed=" + seed);
            long[] twice = g1.add(g1.multiply(g, a), g1.multiply(g, a));
            assertArrayEquals(g1.toAffine(g1.dbl(g1.multiply(g, a))), g1.toAffine(twice), curve + " P + P = 2P");
            assertTrue(g1.isOnCurve(g1.toAffine(sum)));
        }
    }

    /** The shortcut (Σ sᵢkᵢ)·G equals the naive Σ sᵢ·Pᵢ, for both ways of making points and both scalar mixes. */
    @Test
    void knownAnswerInputsAgreeWithTheNaiveSum() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        for (GpuCurve curve : GpuCurve.values()) {
            ReferenceG1 g1 = ReferenceG1.of(curve);
            PrimeField fr = curve.fr();
            int w = curve.fq().limbs();
            for (ScalarMix mix : ScalarMix.values()) {
                for (boolean progression : new boolean[] {false, true}) {
                    int n = 9;
                    MsmInput input = MsmInput.create(g1, fr, n, mix, progression, random);
                    long[] naive = g1.infinity();
                    for (int i = 0; i < n; i++) {
                        long[] p = new long[2 * w];
                        System.arraycopy(input.points(), 2 * w * i, p, 0, 2 * w);
                        assertTrue(g1.isOnCurve(p));
                        long[] s = new long[fr.limbs()];
                        System.arraycopy(input.scalars(), fr.limbs() * i, s, 0, fr.limbs());
                        naive = g1.add(naive, g1.multiply(g1.fromAffine(p), PrimeField.limbsToBigInteger(s, 0, s.length)));
                    }
                    long[] shortcut = g1.multiply(g1.fromAffine(g1.generator()), input.expectedLog());
                    assertArrayEquals(g1.toAffine(naive), g1.toAffine(shortcut),
                            curve + " " + mix + " progression=" + progression + " seed=" + seed);
                }
            }
        }
    }

    /** Above 2^14 points the progression repeats; the expected log must still be Σ sᵢ·kᵢ over the repeated kᵢ. */
    @Test
    void largeInputsRepeatTheirPointsAndKeepTheKnownAnswer() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        GpuCurve curve = GpuCurve.BN254;
        ReferenceG1 g1 = ReferenceG1.of(curve);
        PrimeField fr = curve.fr();
        int n = MsmInput.DISTINCT_POINTS + 5;
        MsmInput input = MsmInput.create(g1, fr, n, ScalarMix.WITNESS, true, random);
        int w = fr.limbs();
        int pw = 2 * curve.fq().limbs();
        BigInteger sum = BigInteger.ZERO;
        for (int i = 0; i < n; i++) {
            sum = sum.add(PrimeField.limbsToBigInteger(input.scalars(), i * w, w).multiply(fr.toBigInteger(input.logs(), i * w)));
        }
        org.junit.jupiter.api.Assertions.assertEquals(sum.mod(fr.modulus()), input.expectedLog(), "seed=" + seed);
        long[] last = java.util.Arrays.copyOfRange(input.points(), (n - 1) * pw, n * pw);
        long[] copy = java.util.Arrays.copyOfRange(input.points(), 4 * pw, 5 * pw);
        assertArrayEquals(copy, last, "point 2^14 + 4 repeats point 4");
        long[] k4 = java.util.Arrays.copyOfRange(input.logs(), 4 * w, 5 * w);
        assertArrayEquals(g1.toAffine(g1.multiply(g1.fromAffine(g1.generator()), fr.toBigInteger(k4))), copy, "P4 = k4·G");
    }
}
