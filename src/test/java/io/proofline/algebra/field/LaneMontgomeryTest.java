package io.proofline.algebra.field;

import io.proofline.algebra.bn254.Bn254;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Random;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link LaneMontgomery} against BigInteger on fresh random inputs (seed in the failure message). */
class LaneMontgomeryTest {

    private static final PrimeField FQ = Bn254.FQ;
    private static final BigInteger P = FQ.modulus();
    private static final LaneMontgomery LANES = new LaneMontgomery(FQ);
    /** Elements per test batch: several vectors, not a multiple of anything but LANES. */
    private static final int N = 5 * LaneMontgomery.LANES;

    private static BigInteger randomBelowP(SplittableRandom rnd) {
        return switch (rnd.nextInt(8)) {
            case 0 -> BigInteger.ZERO;
            case 1 -> BigInteger.ONE;
            case 2 -> P.subtract(BigInteger.ONE);
            default -> new BigInteger(P.bitLength() + 16, new Random(rnd.nextLong())).mod(P);
        };
    }

    /** The integer held in lane form at element e (limbs need not be reduced). */
    private static BigInteger laneValue(long[] lanes, int stride, int e) {
        BigInteger v = BigInteger.ZERO;
        for (int k = LaneMontgomery.LIMBS - 1; k >= 0; k--) {
            v = v.shiftLeft(LaneMontgomery.LIMB_BITS).add(BigInteger.valueOf(lanes[k * stride + e]));
        }
        return v;
    }

    private static void assertLaneForm(long[] lanes, int stride, int e, String why) {
        for (int k = 0; k < LaneMontgomery.LIMBS; k++) {
            long limb = lanes[k * stride + e];
            assertTrue(limb >= 0 && limb < (1L << LaneMontgomery.LIMB_BITS), why + ": limb " + k + " not normalised");
        }
        assertTrue(laneValue(lanes, stride, e).bitLength() <= 259, why + ": value not below 2^259");
    }

    @Test
    void productsMatchBigIntegerThroughLaneFormAndBack() {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 50; round++) {
            BigInteger[] x = new BigInteger[N];
            BigInteger[] y = new BigInteger[N];
            long[] a = new long[4 * N];
            long[] b = new long[4 * N];
            for (int i = 0; i < N; i++) {
                x[i] = randomBelowP(rnd);
                y[i] = randomBelowP(rnd);
                FQ.fromBigInteger(x[i], a, 4 * i);
                FQ.fromBigInteger(y[i], b, 4 * i);
            }
            int stride = N + 3;   // a stride other than the count, and an offset, to catch index mix-ups
            long[] al = new long[LaneMontgomery.LIMBS * stride];
            long[] bl = new long[LaneMontgomery.LIMBS * stride];
            LANES.toLanes(a, 0, N, al, stride, 3);
            LANES.toLanes(b, 0, N, bl, stride, 3);
            LANES.mul(al, bl, al, stride, 3, N);   // in place: r aliases a
            long[] r = new long[4 * N];
            LANES.fromLanes(al, stride, 3, N, r, 0);
            for (int i = 0; i < N; i++) {
                assertLaneForm(al, stride, 3 + i, "seed " + seed + " element " + i);
                assertEquals(x[i].multiply(y[i]).mod(P), FQ.toBigInteger(r, 4 * i), "seed " + seed + " element " + i);
                assertTrue(FQ.isReduced(r, 4 * i), "seed " + seed + ": 64-bit form not reduced");
            }
        }
    }

    @Test
    void chainedProductsStayInLaneFormAndMatchBigInteger() {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        BigInteger rPrimeInv = BigInteger.ONE.shiftLeft(261).modInverse(P);
        long[] a = new long[4 * N];
        long[] b = new long[4 * N];
        BigInteger[] x = new BigInteger[N];
        BigInteger[] y = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            x[i] = randomBelowP(rnd);
            y[i] = randomBelowP(rnd);
            FQ.fromBigInteger(x[i], a, 4 * i);
            FQ.fromBigInteger(y[i], b, 4 * i);
        }
        long[] al = new long[LaneMontgomery.LIMBS * N];
        long[] bl = new long[LaneMontgomery.LIMBS * N];
        LANES.toLanes(a, 0, N, al, N, 0);
        LANES.toLanes(b, 0, N, bl, N, 0);
        // the lane values themselves follow v ← v·w·2^-261 mod p, checked at every step on the raw integers
        BigInteger[] v = new BigInteger[N];
        BigInteger[] w = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            v[i] = laneValue(al, N, i);
            w[i] = laneValue(bl, N, i);
        }
        for (int step = 0; step < 20; step++) {
            LANES.mul(al, bl, al, N, 0, N);
            for (int i = 0; i < N; i++) {
                v[i] = v[i].multiply(w[i]).multiply(rPrimeInv).mod(P);
                assertLaneForm(al, N, i, "seed " + seed + " step " + step);
                assertEquals(v[i], laneValue(al, N, i).mod(P), "seed " + seed + " step " + step + " element " + i);
            }
        }
        long[] r = new long[4 * N];
        LANES.fromLanes(al, N, 0, N, r, 0);
        for (int i = 0; i < N; i++) {
            assertEquals(x[i].multiply(y[i].pow(20)).mod(P), FQ.toBigInteger(r, 4 * i), "seed " + seed);
        }
    }

    @Test
    void largestLaneValuesConvertBackReduced() {
        // 2^259 - 1 is the largest lane-form value: fromLanes must still give a reduced element
        // (in lane 0 of a whole vector, the other lanes zero: fromLanes reads whole vectors)
        int stride = LaneMontgomery.LANES;
        long[] lanes = new long[LaneMontgomery.LIMBS * stride];
        BigInteger v = BigInteger.ONE.shiftLeft(259).subtract(BigInteger.ONE);
        for (int k = 0; k < LaneMontgomery.LIMBS; k++) {
            lanes[k * stride] = v.shiftRight(LaneMontgomery.LIMB_BITS * k).longValue() & ((1L << LaneMontgomery.LIMB_BITS) - 1);
        }
        long[] r = new long[4];
        LANES.fromLanes(lanes, stride, 0, 1, r, 0);
        assertTrue(FQ.isReduced(r, 0));
        // lane form v means x·2^261; the 64-bit form holds x·2^256
        BigInteger expected = v.multiply(BigInteger.ONE.shiftLeft(256)).multiply(BigInteger.ONE.shiftLeft(261).modInverse(P)).mod(P);
        assertEquals(expected, PrimeField.limbsToBigInteger(r, 0, 4));
    }

    @Test
    void plainLaneValuesBelow3pConvertBackReduced() {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        BigInteger threeP = P.multiply(BigInteger.valueOf(3));
        long[] lanes = new long[LaneMontgomery.LIMBS * N];
        BigInteger[] v = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            // edges: 0, p − 1, p, 2p − 1, 2p, 3p − 1; otherwise uniform below 3p
            v[i] = switch (rnd.nextInt(10)) {
                case 0 -> BigInteger.ZERO;
                case 1 -> P.subtract(BigInteger.ONE);
                case 2 -> P;
                case 3 -> P.shiftLeft(1).subtract(BigInteger.ONE);
                case 4 -> P.shiftLeft(1);
                case 5 -> threeP.subtract(BigInteger.ONE);
                default -> new BigInteger(threeP.bitLength() + 16, new Random(rnd.nextLong())).mod(threeP);
            };
            for (int k = 0; k < LaneMontgomery.LIMBS; k++) {
                lanes[k * N + i] = v[i].shiftRight(LaneMontgomery.LIMB_BITS * k).longValue()
                        & ((1L << LaneMontgomery.LIMB_BITS) - 1);
            }
        }
        long[] r = new long[4 * N];
        LANES.fromPlainLanes(lanes, N, 0, N, r, 0);
        for (int i = 0; i < N; i++) {
            // plain lane form holds the 64-bit Montgomery limbs themselves, only unreduced
            assertEquals(v[i].mod(P), PrimeField.limbsToBigInteger(r, 4 * i, 4), "seed " + seed + " value " + v[i]);
        }
    }

    @Test
    void plainOperandGivesPlainProductAndScalingMatches() {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] a = new long[4 * N];
        long[] b = new long[4 * N];
        BigInteger[] x = new BigInteger[N];
        BigInteger[] y = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            x[i] = randomBelowP(rnd);
            y[i] = randomBelowP(rnd);
            FQ.fromBigInteger(x[i], a, 4 * i);
            FQ.fromBigInteger(y[i], b, 4 * i);
        }
        long[] al = new long[LaneMontgomery.LIMBS * N];
        long[] bl = new long[LaneMontgomery.LIMBS * N];
        LANES.toPlainLanes(a, 0, N, al, N, 0);
        LANES.toPlainLanes(b, 0, N, bl, N, 0);
        long[] scaled = new long[LaneMontgomery.LIMBS * N];
        for (int e = 0; e < N; e += LaneMontgomery.LANES) {
            LANES.scaleGroup(al, e, scaled, e, N);      // x in lane form, from its plain form
            LANES.mulGroup(scaled, e, bl, e, bl, e, N);  // lane × plain = plain
        }
        long[] r = new long[4 * N];
        LANES.fromPlainLanes(bl, N, 0, N, r, 0);
        for (int i = 0; i < N; i++) {
            assertLaneForm(scaled, N, i, "seed " + seed);
            assertEquals(x[i].multiply(y[i]).mod(P), FQ.toBigInteger(r, 4 * i), "seed " + seed + " element " + i);
        }
    }

    /**
     * The 𝔽q² building blocks: one coefficient of 8-long elements in and out (element stride 8), products, and
     * addGroup / subGroup on products, checked on the raw lane values mod p and against the lane-form bound.
     */
    @Test
    void coefficientConversionsAndLaneSumsMatchBigInteger() {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] pairs = new long[8 * N];
        BigInteger[] x = new BigInteger[N];
        BigInteger[] y = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            x[i] = randomBelowP(rnd);
            y[i] = randomBelowP(rnd);
            FQ.fromBigInteger(x[i], pairs, 8 * i);
            FQ.fromBigInteger(y[i], pairs, 8 * i + 4);
        }
        long[] xl = new long[LaneMontgomery.LIMBS * N];
        long[] yl = new long[LaneMontgomery.LIMBS * N];
        LANES.toLanes(pairs, 0, 8, N, xl, N, 0);
        LANES.toLanes(pairs, 4, 8, N, yl, N, 0);
        long[] xx = new long[LaneMontgomery.LIMBS * N];
        long[] yy = new long[LaneMontgomery.LIMBS * N];
        long[] diff = new long[LaneMontgomery.LIMBS * N];
        long[] sum = new long[LaneMontgomery.LIMBS * N];
        for (int e = 0; e < N; e += LaneMontgomery.LANES) {
            LANES.mulGroup(xl, e, xl, e, xx, e, N);
            LANES.mulGroup(yl, e, yl, e, yy, e, N);
            LANES.subGroup(xx, e, yy, e, diff, e, N);
            LANES.addGroup(xx, e, yy, e, sum, e, N);
        }
        BigInteger rPrimeInv = BigInteger.ONE.shiftLeft(261).modInverse(P);
        for (int i = 0; i < N; i++) {
            BigInteger a = laneValue(xx, N, i);
            BigInteger b = laneValue(yy, N, i);
            assertEquals(laneValue(xl, N, i).pow(2).multiply(rPrimeInv).mod(P), a.mod(P), "seed " + seed);
            assertLaneForm(diff, N, i, "seed " + seed + " difference");
            assertLaneForm(sum, N, i, "seed " + seed + " sum");
            assertEquals(a.subtract(b).mod(P), laneValue(diff, N, i).mod(P), "seed " + seed);
            assertEquals(a.add(b).mod(P), laneValue(sum, N, i).mod(P), "seed " + seed);
        }
        long[] back = new long[8 * N];
        LANES.fromLanes(diff, N, 0, N, back, 0, 8);
        LANES.fromLanes(sum, N, 0, N, back, 4, 8);
        for (int i = 0; i < N; i++) {
            assertEquals(x[i].pow(2).subtract(y[i].pow(2)).mod(P), FQ.toBigInteger(back, 8 * i), "seed " + seed);
            assertEquals(x[i].pow(2).add(y[i].pow(2)).mod(P), FQ.toBigInteger(back, 8 * i + 4), "seed " + seed);
        }
    }

    @Test
    void rejectsFieldsOutsideItsBounds() {
        assertThrows(IllegalArgumentException.class, () -> new LaneMontgomery(io.proofline.algebra.bls12381.Bls12381.FQ));
    }
}
