package io.proofline.algebra.poly;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.field.PrimeField;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class Radix2DomainTest {

    static Stream<Arguments> fields() {
        return Stream.of(Arguments.of(Bn254.FR), Arguments.of(Bls12381.FR));
    }

    private static BigInteger[] randomVector(PrimeField f, int n, SplittableRandom rnd) {
        BigInteger[] x = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            x[i] = new BigInteger(f.modulus().bitLength() + 8, new java.util.Random(rnd.nextLong())).mod(f.modulus());
        }
        return x;
    }

    /** O(n²) reference: y_i = Σ_j x_j·w^(ij) with w computed independently as 5^((p−1)/n). */
    private static BigInteger[] dft(PrimeField f, BigInteger[] x, boolean inverse) {
        BigInteger p = f.modulus();
        int n = x.length;
        BigInteger w = BigInteger.valueOf(5).modPow(p.subtract(BigInteger.ONE).divide(BigInteger.valueOf(n)), p);
        if (inverse) {
            w = w.modInverse(p);
        }
        BigInteger[] y = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            BigInteger acc = BigInteger.ZERO;
            BigInteger wi = w.modPow(BigInteger.valueOf(i), p);
            BigInteger wij = BigInteger.ONE;
            for (int j = 0; j < n; j++) {
                acc = acc.add(x[j].multiply(wij)).mod(p);
                wij = wij.multiply(wi).mod(p);
            }
            y[i] = inverse ? acc.multiply(BigInteger.valueOf(n).modInverse(p)).mod(p) : acc;
        }
        return y;
    }

    private static FieldVector load(PrimeField f, BigInteger[] x, Arena arena) {
        FieldVector v = FieldVector.allocate(f, x.length, arena);
        for (int i = 0; i < x.length; i++) {
            v.setBigInteger(i, x[i]);
        }
        return v;
    }

    @ParameterizedTest
    @MethodSource("fields")
    void forwardAndInverseMatchTheQuadraticDft(PrimeField f) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        // 2^13 crosses the in-cache block size (2^11), so both butterfly phases are exercised.
        for (int log : new int[] {1, 2, 3, 5, 8, 13}) {
            int n = 1 << log;
            BigInteger[] x = randomVector(f, n, rnd);
            try (Arena arena = Arena.ofShared()) {
                Radix2Domain d = Radix2Domain.of(f, log);
                FieldVector v = load(f, x, arena);
                d.forward(v);
                // The full O(n²) reference is too slow at 2^13: check a sample of outputs there.
                BigInteger[] y = n <= 256 ? dft(f, x, false) : null;
                BigInteger[] yi = n <= 256 ? dft(f, x, true) : null;
                for (int i = 0; i < n; i += n <= 256 ? 1 : 509) {
                    BigInteger expected = y != null ? y[i] : evaluate(f, x, i, false);
                    assertEquals(expected, v.getBigInteger(i), "forward " + f + " n=" + n + " i=" + i + " seed=" + seed);
                }
                FieldVector u = load(f, x, arena);
                d.inverse(u);
                for (int i = 0; i < n; i += n <= 256 ? 1 : 509) {
                    BigInteger expected = yi != null ? yi[i] : evaluate(f, x, i, true);
                    assertEquals(expected, u.getBigInteger(i), "inverse " + f + " n=" + n + " i=" + i + " seed=" + seed);
                }
            }
        }
    }

    private static BigInteger evaluate(PrimeField f, BigInteger[] x, int i, boolean inverse) {
        BigInteger p = f.modulus();
        int n = x.length;
        BigInteger w = BigInteger.valueOf(5).modPow(p.subtract(BigInteger.ONE).divide(BigInteger.valueOf(n)), p);
        if (inverse) {
            w = w.modInverse(p);
        }
        BigInteger wi = w.modPow(BigInteger.valueOf(i), p);
        BigInteger acc = BigInteger.ZERO;
        for (int j = n - 1; j >= 0; j--) {
            acc = acc.multiply(wi).add(x[j]).mod(p);
        }
        return inverse ? acc.multiply(BigInteger.valueOf(n).modInverse(p)).mod(p) : acc;
    }

    @ParameterizedTest
    @MethodSource("fields")
    void inverseUndoesForward(PrimeField f) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        int log = 15;
        int n = 1 << log;
        BigInteger[] x = randomVector(f, n, rnd);
        try (Arena arena = Arena.ofShared()) {
            FieldVector v = load(f, x, arena);
            Radix2Domain d = Radix2Domain.of(f, log);
            d.forward(v);
            d.inverse(v);
            for (int i = 0; i < n; i++) {
                assertEquals(x[i], v.getBigInteger(i), "i=" + i + " seed=" + seed);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fields")
    void rootOfUnityHasExactOrder(PrimeField f) {
        long[] w = Radix2Domain.rootOfUnity(f, 1 << 20);
        BigInteger p = f.modulus();
        BigInteger expected = BigInteger.valueOf(5).modPow(p.subtract(BigInteger.ONE).shiftRight(20), p);
        assertEquals(expected, f.toBigInteger(w));
        assertEquals(p.subtract(BigInteger.ONE), expected.modPow(BigInteger.ONE.shiftLeft(19), p));
    }
}
