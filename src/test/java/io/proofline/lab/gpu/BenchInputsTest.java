package io.proofline.lab.gpu;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.Msm;
import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.GpuCurve;
import io.proofline.snark.setup.WitnessDistribution;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The benchmark's host inputs (the GPU part is exercised on the device): uniform reduced scalars, reproducible from the
 * seed, and the known answer of a tiled MSM, Σ sᵢ·k_{i mod B}, checked against BigInteger arithmetic (G1) and the
 * CPU's Msm (G2).
 */
class BenchInputsTest {

    /** PoRep-like scalars: nine in ten are 0 or 1, and the tiled answer still sums them all. */
    @Test
    void porepLikeScalarsAreMostlyBitsAndTheAnswerStillSumsThem() {
        long seed = new SplittableRandom().nextLong();
        int n = (1 << 16) + 3;
        BigInteger[] values = drawAndCheck(GpuCurve.BN254, n, WitnessDistribution.POREP, 5, seed);
        long bits = Arrays.stream(values).filter(v -> v.compareTo(BigInteger.ONE) <= 0).count();
        double share = (double) bits / n;
        assertTrue(share > 0.88 && share < 0.92, "0/1 share " + share + ", seed " + seed);
    }

    @Test
    void scalarsAreReducedAndTheTiledAnswerIsTheDirectSum() {
        long seed = new SplittableRandom().nextLong();
        for (GpuCurve curve : GpuCurve.values()) {
            BigInteger r = curve.fr().modulus();
            // More than one parallel chunk, and a count that is not a multiple of the residues.
            BigInteger[] values = drawAndCheck(curve, (1 << 17) + 5, WitnessDistribution.UNIFORM, 7, seed);
            BigInteger top = Arrays.stream(values).reduce(BigInteger.ZERO, BigInteger::max);
            // Uniform below r: the largest of 2^17 draws is within 2^-10 of r (fails with probability ~e^-128).
            assertTrue(top.compareTo(r.subtract(r.shiftRight(10))) > 0, "not uniform, seed " + seed);
        }
    }

    /**
     * Draws n scalars of {@code distribution} with {@code residues} random logs, checks each is reduced and the tiled
     * answer equals Σ sᵢ·k_{i mod residues} in BigInteger arithmetic, and returns the scalars.
     */
    private static BigInteger[] drawAndCheck(GpuCurve curve, int n, WitnessDistribution distribution, int residues,
                                             long seed) {
        PrimeField fr = curve.fr();
        BigInteger r = fr.modulus();
        SplittableRandom random = new SplittableRandom(seed);
        long[] logs = new long[residues * fr.limbs()];
        BigInteger[] logValues = new BigInteger[residues];
        for (int j = 0; j < residues; j++) {
            long[] k = fr.random(random);
            System.arraycopy(k, 0, logs, j * fr.limbs(), fr.limbs());
            logValues[j] = fr.toBigInteger(k);
        }
        try (Arena arena = Arena.ofShared()) {
            BenchInputs.Scalars s = BenchInputs.Scalars.draw(fr, n, distribution, random, residues, arena);
            BigInteger[] values = new BigInteger[n];
            BigInteger want = BigInteger.ZERO;
            for (int i = 0; i < n; i++) {
                BigInteger v = BigInteger.ZERO;
                for (int k = fr.limbs() - 1; k >= 0; k--) {
                    long limb = s.values().getAtIndex(ValueLayout.JAVA_LONG, (long) i * fr.limbs() + k);
                    v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(limb)));
                }
                assertTrue(v.compareTo(r) < 0, "scalar " + i + " not reduced (seed " + seed + ")");
                values[i] = v;
                want = want.add(v.multiply(logValues[i % residues]));
            }
            assertEquals(want.mod(r), s.expectedLog(fr, logs), curve + ", seed " + seed);
            return values;
        }
    }

    @Test
    void theSameSeedDrawsTheSameScalars() {
        PrimeField fr = GpuCurve.BN254.fr();
        try (Arena arena = Arena.ofShared()) {
            var a = BenchInputs.Scalars.draw(fr, 70_000, WitnessDistribution.UNIFORM, new SplittableRandom(5), 0, arena).values();
            var b = BenchInputs.Scalars.draw(fr, 70_000, WitnessDistribution.UNIFORM, new SplittableRandom(5), 0, arena).values();
            assertEquals(-1, a.mismatch(b));
        }
    }

    /** The G2 bench's answer, (Σ sᵢ·k_{i mod B})·G2, equals the CPU's Msm over the tiled points. */
    @Test
    void theG2AnswerIsTheMsmOfTheTiledPoints() {
        long seed = new SplittableRandom().nextLong();
        for (GpuCurve curve : GpuCurve.values()) {
            CurveGroup g2 = curve.snarkCurve().g2();
            int pw = g2.affineWidth();
            int n = 150;
            int distinct = 7;
            try (Arena arena = Arena.ofShared()) {
                BenchInputs.G2Host host = BenchInputs.G2Host.draw(curve, n, distinct, WitnessDistribution.UNIFORM, new SplittableRandom(seed), arena);
                long[] points = new long[n * pw];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(host.base(), (i % distinct) * pw, points, i * pw, pw);
                }
                long[] scalars = host.scalars().toArray(ValueLayout.JAVA_LONG);
                assertArrayEquals(Msm.compute(g2, points, scalars), host.expected(), curve + ", seed " + seed);
            }
        }
    }
}
