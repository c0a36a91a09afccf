package io.proofline.algebra.field;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LaneMontgomery} against BigInteger and against the scalar Montgomery multiplication ({@link PrimeField#mul})
 * on fresh random inputs with the edge values 0, 1 and p − 1 mixed in (seed in the failure message), for every
 * field it has a kernel for: BN254 𝔽q (the G1/G2 MSMs), BN254 𝔽r (same shape) and BLS12-381 𝔽q.
 */
class LaneMontgomeryTest {

    /** Elements per test batch: several vectors, not a multiple of anything but LANES. */
    private static final int N = 5 * LaneMontgomery.LANES;
    private static final int LB = LaneMontgomery.LIMB_BITS;

    static Stream<PrimeField> fields() {
        return Stream.of(Bn254.FQ, Bn254.FR, Bls12381.FQ);
    }

    private static BigInteger randomBelowP(PrimeField f, SplittableRandom rnd) {
        BigInteger p = f.modulus();
        return switch (rnd.nextInt(8)) {
            case 0 -> BigInteger.ZERO;
            case 1 -> BigInteger.ONE;
            case 2 -> p.subtract(BigInteger.ONE);
            default -> new BigInteger(p.bitLength() + 16, new Random(rnd.nextLong())).mod(p);
        };
    }

    /** The integer held in lane form at element e (limbs need not be reduced). */
    private static BigInteger laneValue(LaneMontgomery lm, long[] lanes, int stride, int e) {
        BigInteger v = BigInteger.ZERO;
        for (int k = lm.limbs() - 1; k >= 0; k--) {
            v = v.shiftLeft(LB).add(BigInteger.valueOf(lanes[k * stride + e]));
        }
        return v;
    }

    private static void setLaneValue(LaneMontgomery lm, BigInteger v, long[] lanes, int stride, int e) {
        for (int k = 0; k < lm.limbs(); k++) {
            lanes[k * stride + e] = v.shiftRight(LB * k).longValue() & ((1L << LB) - 1);
        }
    }

    private static void assertLaneForm(LaneMontgomery lm, long[] lanes, int stride, int e, String why) {
        for (int k = 0; k < lm.limbs(); k++) {
            long limb = lanes[k * stride + e];
            assertTrue(limb >= 0 && limb < (1L << LB), why + ": limb " + k + " not normalised");
        }
        assertTrue(laneValue(lm, lanes, stride, e).bitLength() <= lm.boundBits(),
                why + ": value not below 2^" + lm.boundBits());
    }

    /** R'⁻¹ mod p: lane form holds x·R', R' = 2^(29·limbs). */
    private static BigInteger rPrimeInv(LaneMontgomery lm) {
        return BigInteger.ONE.shiftLeft(LB * lm.limbs()).modInverse(lm.field().modulus());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void productsMatchBigIntegerAndTheScalarPathThroughLaneFormAndBack(PrimeField f) {
        LaneMontgomery lm = LaneMontgomery.of(f);
        int w = f.limbs();
        BigInteger p = f.modulus();
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int round = 0; round < 50; round++) {
            BigInteger[] x = new BigInteger[N];
            BigInteger[] y = new BigInteger[N];
            long[] a = new long[w * N];
            long[] b = new long[w * N];
            for (int i = 0; i < N; i++) {
                x[i] = randomBelowP(f, rnd);
                y[i] = randomBelowP(f, rnd);
                f.fromBigInteger(x[i], a, w * i);
                f.fromBigInteger(y[i], b, w * i);
            }
            int stride = N + 3;   // a stride other than the count, and an offset, to catch index mix-ups
            long[] al = new long[lm.limbs() * stride];
            long[] bl = new long[lm.limbs() * stride];
            lm.toLanes(a, 0, N, al, stride, 3);
            lm.toLanes(b, 0, N, bl, stride, 3);
            lm.mul(al, bl, al, stride, 3, N);   // in place: r aliases a
            long[] r = new long[w * N];
            lm.fromLanes(al, stride, 3, N, r, 0);
            long[] scalar = new long[w];
            for (int i = 0; i < N; i++) {
                String why = f.name() + " seed " + seed + " element " + i;
                assertLaneForm(lm, al, stride, 3 + i, why);
                assertEquals(x[i].multiply(y[i]).mod(p), f.toBigInteger(r, w * i), why);
                assertTrue(f.isReduced(r, w * i), why + ": 64-bit form not reduced");
                f.mul(a, w * i, b, w * i, scalar, 0);
                assertEquals(f.toBigInteger(scalar, 0), f.toBigInteger(r, w * i), why + ": differs from PrimeField.mul");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void chainedProductsStayInLaneFormAndMatchBigInteger(PrimeField f) {
        LaneMontgomery lm = LaneMontgomery.of(f);
        int w = f.limbs();
        BigInteger p = f.modulus();
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        BigInteger rInv = rPrimeInv(lm);
        long[] a = new long[w * N];
        long[] b = new long[w * N];
        BigInteger[] x = new BigInteger[N];
        BigInteger[] y = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            x[i] = randomBelowP(f, rnd);
            y[i] = randomBelowP(f, rnd);
            f.fromBigInteger(x[i], a, w * i);
            f.fromBigInteger(y[i], b, w * i);
        }
        long[] al = new long[lm.limbs() * N];
        long[] bl = new long[lm.limbs() * N];
        lm.toLanes(a, 0, N, al, N, 0);
        lm.toLanes(b, 0, N, bl, N, 0);
        // the lane values themselves follow v ← v·w·R'⁻¹ mod p, checked at every step on the raw integers
        BigInteger[] v = new BigInteger[N];
        BigInteger[] u = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            v[i] = laneValue(lm, al, N, i);
            u[i] = laneValue(lm, bl, N, i);
        }
        for (int step = 0; step < 20; step++) {
            lm.mul(al, bl, al, N, 0, N);
            for (int i = 0; i < N; i++) {
                v[i] = v[i].multiply(u[i]).multiply(rInv).mod(p);
                String why = f.name() + " seed " + seed + " step " + step + " element " + i;
                assertLaneForm(lm, al, N, i, why);
                assertEquals(v[i], laneValue(lm, al, N, i).mod(p), why);
            }
        }
        long[] r = new long[w * N];
        lm.fromLanes(al, N, 0, N, r, 0);
        for (int i = 0; i < N; i++) {
            assertEquals(x[i].multiply(y[i].pow(20)).mod(p), f.toBigInteger(r, w * i), f.name() + " seed " + seed);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void largestLaneValuesMultiplyAndConvertBackReduced(PrimeField f) {
        // 2^bound − 1 is the largest lane-form value: squared it must stay in lane form, and fromLanes (vector and
        // scalar) must still give a reduced element (in lane 0 of a whole vector, the other lanes zero: fromLanes
        // reads whole vectors)
        LaneMontgomery lm = LaneMontgomery.of(f);
        int w = f.limbs();
        BigInteger p = f.modulus();
        int stride = LaneMontgomery.LANES;
        long[] lanes = new long[lm.limbs() * stride];
        BigInteger v = BigInteger.ONE.shiftLeft(lm.boundBits()).subtract(BigInteger.ONE);
        setLaneValue(lm, v, lanes, stride, 0);
        // lane form v means x·R'; the 64-bit form holds x·2^(64·words)
        BigInteger toMontgomery = BigInteger.ONE.shiftLeft(64 * w).multiply(rPrimeInv(lm));
        long[] r = new long[w];
        lm.fromLanes(lanes, stride, 0, 1, r, 0);
        assertTrue(f.isReduced(r, 0));
        assertEquals(v.multiply(toMontgomery).mod(p), PrimeField.limbsToBigInteger(r, 0, w));
        long[] rs = new long[w];
        lm.fromLanesScalar(lanes, stride, 0, 1, rs, 0, w);
        assertEquals(PrimeField.limbsToBigInteger(r, 0, w), PrimeField.limbsToBigInteger(rs, 0, w));
        long[] sq = new long[lm.limbs() * stride];
        lm.mulGroup(lanes, 0, lanes, 0, sq, 0, stride);
        assertLaneForm(lm, sq, stride, 0, f.name() + " square of the largest value");
        assertEquals(v.multiply(v).multiply(rPrimeInv(lm)).mod(p), laneValue(lm, sq, stride, 0).mod(p));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void plainLaneValuesBelow3pConvertBackReduced(PrimeField f) {
        LaneMontgomery lm = LaneMontgomery.of(f);
        int w = f.limbs();
        BigInteger p = f.modulus();
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        BigInteger threeP = p.multiply(BigInteger.valueOf(3));
        long[] lanes = new long[lm.limbs() * N];
        BigInteger[] v = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            // edges: 0, p − 1, p, 2p − 1, 2p, 3p − 1; otherwise uniform below 3p
            v[i] = switch (rnd.nextInt(10)) {
                case 0 -> BigInteger.ZERO;
                case 1 -> p.subtract(BigInteger.ONE);
                case 2 -> p;
                case 3 -> p.shiftLeft(1).subtract(BigInteger.ONE);
                case 4 -> p.shiftLeft(1);
                case 5 -> threeP.subtract(BigInteger.ONE);
                default -> new BigInteger(threeP.bitLength() + 16, new Random(rnd.nextLong())).mod(threeP);
            };
            setLaneValue(lm, v[i], lanes, N, i);
        }
        long[] r = new long[w * N];
        lm.fromPlainLanes(lanes, N, 0, N, r, 0);
        for (int i = 0; i < N; i++) {
            // plain lane form holds the 64-bit Montgomery limbs themselves, only unreduced
            assertEquals(v[i].mod(p), PrimeField.limbsToBigInteger(r, w * i, w), f.name() + " seed " + seed + " value " + v[i]);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void plainOperandGivesPlainProductAndScalingMatches(PrimeField f) {
        LaneMontgomery lm = LaneMontgomery.of(f);
        int w = f.limbs();
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] a = new long[w * N];
        long[] b = new long[w * N];
        BigInteger[] x = new BigInteger[N];
        BigInteger[] y = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            x[i] = randomBelowP(f, rnd);
            y[i] = randomBelowP(f, rnd);
            f.fromBigInteger(x[i], a, w * i);
            f.fromBigInteger(y[i], b, w * i);
        }
        long[] al = new long[lm.limbs() * N];
        long[] bl = new long[lm.limbs() * N];
        lm.toPlainLanes(a, 0, N, al, N, 0);
        lm.toPlainLanes(b, 0, N, bl, N, 0);
        long[] scaled = new long[lm.limbs() * N];
        for (int e = 0; e < N; e += LaneMontgomery.LANES) {
            lm.scaleGroup(al, e, scaled, e, N);      // x in lane form, from its plain form
            lm.mulGroup(scaled, e, bl, e, bl, e, N);  // lane × plain = plain
        }
        long[] r = new long[w * N];
        lm.fromPlainLanes(bl, N, 0, N, r, 0);
        for (int i = 0; i < N; i++) {
            assertLaneForm(lm, scaled, N, i, f.name() + " seed " + seed);
            assertEquals(x[i].multiply(y[i]).mod(f.modulus()), f.toBigInteger(r, w * i), f.name() + " seed " + seed + " element " + i);
        }
    }

    /**
     * The 𝔽q² building blocks: one coefficient of 2·words-long elements in and out, products, addGroup / subGroup
     * on products, checked on the raw lane values mod p, against the lane-form bound and against BigInteger.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void coefficientConversionsAndLaneSumsMatchBigInteger(PrimeField f) {
        LaneMontgomery lm = LaneMontgomery.of(f);
        int w = f.limbs();
        int width = 2 * w;
        BigInteger p = f.modulus();
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] pairs = new long[width * N];
        BigInteger[] x = new BigInteger[N];
        BigInteger[] y = new BigInteger[N];
        for (int i = 0; i < N; i++) {
            x[i] = randomBelowP(f, rnd);
            y[i] = randomBelowP(f, rnd);
            f.fromBigInteger(x[i], pairs, width * i);
            f.fromBigInteger(y[i], pairs, width * i + w);
        }
        int limbs = lm.limbs();
        long[] xl = new long[limbs * N];
        long[] yl = new long[limbs * N];
        lm.toLanes(pairs, 0, width, N, xl, N, 0);
        lm.toLanes(pairs, w, width, N, yl, N, 0);
        long[] xx = new long[limbs * N];
        long[] yy = new long[limbs * N];
        long[] diff = new long[limbs * N];
        long[] sum = new long[limbs * N];
        for (int e = 0; e < N; e += LaneMontgomery.LANES) {
            lm.mulGroup(xl, e, xl, e, xx, e, N);
            lm.mulGroup(yl, e, yl, e, yy, e, N);
            lm.subGroup(xx, e, yy, e, diff, e, N);
            lm.addGroup(xx, e, yy, e, sum, e, N);
        }
        BigInteger rInv = rPrimeInv(lm);
        for (int i = 0; i < N; i++) {
            BigInteger a = laneValue(lm, xx, N, i);
            BigInteger b = laneValue(lm, yy, N, i);
            String why = f.name() + " seed " + seed;
            assertEquals(laneValue(lm, xl, N, i).pow(2).multiply(rInv).mod(p), a.mod(p), why);
            assertLaneForm(lm, diff, N, i, why + " difference");
            assertLaneForm(lm, sum, N, i, why + " sum");
            assertEquals(a.subtract(b).mod(p), laneValue(lm, diff, N, i).mod(p), why);
            assertEquals(a.add(b).mod(p), laneValue(lm, sum, N, i).mod(p), why);
        }
        long[] back = new long[width * N];
        lm.fromLanes(diff, N, 0, N, back, 0, width);
        lm.fromLanes(sum, N, 0, N, back, w, width);
        for (int i = 0; i < N; i++) {
            assertEquals(x[i].pow(2).subtract(y[i].pow(2)).mod(p), f.toBigInteger(back, width * i), f.name() + " seed " + seed);
            assertEquals(x[i].pow(2).add(y[i].pow(2)).mod(p), f.toBigInteger(back, width * i + w), f.name() + " seed " + seed);
        }
    }

    @Test
    void kernelsAndShapesPerField() {
        assertInstanceOf(LaneMontgomery254.class, LaneMontgomery.of(Bn254.FQ));
        assertInstanceOf(LaneMontgomery381.class, LaneMontgomery.of(Bls12381.FQ));
        // BLS12-381 𝔽r: 255 bits in 4 words, outside the 254-bit shape's bounds
        assertFalse(LaneMontgomery.supports(Bls12381.FR));
        assertThrows(IllegalArgumentException.class, () -> LaneMontgomery.of(Bls12381.FR));
    }

    @Test
    void lanesAreChosenOnlyWhereTheyBeatTheScalarPath() {
        // bench lanes: BN254 wins with 4 lanes (AVX2) and 8; BLS12-381's 14-limb kernel wins only with 8 (AVX-512)
        assertEquals(LaneMontgomery.LANES >= 4, LaneMontgomery.pays(Bn254.FQ));
        assertEquals(LaneMontgomery.LANES >= 8, LaneMontgomery.pays(Bls12381.FQ));
        assertFalse(LaneMontgomery.pays(Bls12381.FR), "no kernel for BLS12-381 Fr");
    }
}
