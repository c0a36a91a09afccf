package io.proofline.algebra.field;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** 𝔽p² against a reference written with BigInteger pairs (u² = −1). */
class QuadraticFieldTest {

    static Stream<PrimeField> baseFields() {
        return Stream.of(Bn254.FQ, Bls12381.FQ);
    }

    @ParameterizedTest
    @MethodSource("baseFields")
    void matchesBigIntegerReference(PrimeField fp) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        QuadraticField f2 = new QuadraticField(fp);
        BigInteger p = fp.modulus();
        int n = fp.limbs();
        for (int i = 0; i < 500; i++) {
            long[] a = concat(fp.random(rnd), fp.random(rnd));
            long[] b = concat(fp.random(rnd), fp.random(rnd));
            BigInteger a0 = fp.toBigInteger(a, 0), a1 = fp.toBigInteger(a, n);
            BigInteger b0 = fp.toBigInteger(b, 0), b1 = fp.toBigInteger(b, n);
            long[] r = new long[2 * n];
            String ctx = fp + " seed=" + seed;

            f2.mul(a, 0, b, 0, r, 0);
            assertEquals(a0.multiply(b0).subtract(a1.multiply(b1)).mod(p), fp.toBigInteger(r, 0), "mul.c0 " + ctx);
            assertEquals(a0.multiply(b1).add(a1.multiply(b0)).mod(p), fp.toBigInteger(r, n), "mul.c1 " + ctx);

            f2.sqr(a, 0, r, 0);
            assertEquals(a0.pow(2).subtract(a1.pow(2)).mod(p), fp.toBigInteger(r, 0), "sqr.c0 " + ctx);
            assertEquals(a0.multiply(a1).shiftLeft(1).mod(p), fp.toBigInteger(r, n), "sqr.c1 " + ctx);

            f2.inv(a, 0, r, 0);
            long[] prod = new long[2 * n];
            f2.mul(a, 0, r, 0, prod, 0);
            assertEquals(BigInteger.ONE, fp.toBigInteger(prod, 0), "a·a⁻¹ " + ctx);
            assertEquals(BigInteger.ZERO, fp.toBigInteger(prod, n), "a·a⁻¹ " + ctx);

            f2.mul(a, 0, b, 0, a, 0); // aliasing
            assertEquals(a0.multiply(b0).subtract(a1.multiply(b1)).mod(p), fp.toBigInteger(a, 0), "aliased mul " + ctx);
        }
    }

    /**
     * Multiplication with coefficients whose Montgomery limbs are carry-chain edge values (0, p − 1, all-ones limbs):
     * the lazy reduction's wide subtractions, the p·R correction of a negative c0 and the reductions are decided by them.
     */
    @ParameterizedTest
    @MethodSource("baseFields")
    void mulMatchesReferenceOnLimbEdgeValues(PrimeField fp) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        QuadraticField f2 = new QuadraticField(fp);
        BigInteger p = fp.modulus();
        long[] pl = fp.modulusLimbs();
        int n = fp.limbs();
        for (int i = 0; i < 2_000; i++) {
            long[] a = concat(PrimeFieldTest.edgeLimbs(pl, rnd), PrimeFieldTest.edgeLimbs(pl, rnd));
            long[] b = concat(PrimeFieldTest.edgeLimbs(pl, rnd), PrimeFieldTest.edgeLimbs(pl, rnd));
            BigInteger a0 = fp.toBigInteger(a, 0), a1 = fp.toBigInteger(a, n);
            BigInteger b0 = fp.toBigInteger(b, 0), b1 = fp.toBigInteger(b, n);
            long[] r = new long[2 * n];
            f2.mul(a, 0, b, 0, r, 0);
            String ctx = fp + " seed=" + seed + " a=" + java.util.Arrays.toString(a) + " b=" + java.util.Arrays.toString(b);
            assertEquals(a0.multiply(b0).subtract(a1.multiply(b1)).mod(p), fp.toBigInteger(r, 0), "mul.c0 " + ctx);
            assertEquals(a0.multiply(b1).add(a1.multiply(b0)).mod(p), fp.toBigInteger(r, n), "mul.c1 " + ctx);
            org.junit.jupiter.api.Assertions.assertTrue(fp.isReduced(r, 0) && fp.isReduced(r, n), "not reduced " + ctx);
        }
    }

    private static long[] concat(long[] x, long[] y) {
        long[] r = new long[x.length + y.length];
        System.arraycopy(x, 0, r, 0, x.length);
        System.arraycopy(y, 0, r, x.length, y.length);
        return r;
    }
}
