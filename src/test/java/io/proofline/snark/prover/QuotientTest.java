package io.proofline.snark.prover;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.poly.FieldVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class QuotientTest {

    static Stream<Arguments> fields() {
        return Stream.of(Arguments.of(Bn254.FR), Arguments.of(Bls12381.FR));
    }

    private static BigInteger random(PrimeField f, SplittableRandom rnd) {
        BigInteger x = BigInteger.ZERO;
        for (int i = 0; i < f.limbs() + 1; i++) {
            x = x.shiftLeft(64).add(BigInteger.valueOf(rnd.nextLong() >>> 1));
        }
        return x.mod(f.modulus());
    }

    /** Coefficients of the polynomial of degree < n through (ω^i, y_i): O(n²) inverse DFT in BigInteger. */
    private static BigInteger[] interpolate(BigInteger[] y, BigInteger omega, BigInteger p) {
        int n = y.length;
        BigInteger wInv = omega.modInverse(p);
        BigInteger nInv = BigInteger.valueOf(n).modInverse(p);
        BigInteger[] coef = new BigInteger[n];
        for (int k = 0; k < n; k++) {
            BigInteger acc = BigInteger.ZERO;
            BigInteger step = wInv.modPow(BigInteger.valueOf(k), p);
            BigInteger pw = BigInteger.ONE;
            for (int i = 0; i < n; i++) {
                acc = acc.add(y[i].multiply(pw)).mod(p);
                pw = pw.multiply(step).mod(p);
            }
            coef[k] = acc.multiply(nInv).mod(p);
        }
        return coef;
    }

    private static BigInteger eval(BigInteger[] coef, BigInteger x, BigInteger p) {
        BigInteger acc = BigInteger.ZERO;
        for (int k = coef.length - 1; k >= 0; k--) {
            acc = acc.multiply(x).add(coef[k]).mod(p);
        }
        return acc;
    }

    /**
     * Against an independent O(N²) reference: h_j = A(x_j)·B(x_j) − C(x_j) on x_j = g·ω^j with g = 5^((r−1)/2N); and,
     * because c = a∘b on the domain, h_j / Z(x_j) = h_j / −2 interpolates a polynomial of degree ≤ N − 2 (the true
     * quotient), so its top coefficient is zero.
     */
    @ParameterizedTest
    @MethodSource("fields")
    void hMatchesTheCosetEvaluationsOfTheQuotient(PrimeField f) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        BigInteger p = f.modulus();
        int n = 64;
        BigInteger[] a = new BigInteger[n];
        BigInteger[] b = new BigInteger[n];
        BigInteger[] c = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            a[i] = random(f, rnd);
            b[i] = random(f, rnd);
            c[i] = a[i].multiply(b[i]).mod(p);
        }
        try (Arena arena = Arena.ofShared()) {
            FieldVector va = FieldVector.allocate(f, n, arena);
            FieldVector vb = FieldVector.allocate(f, n, arena);
            FieldVector vc = FieldVector.allocate(f, n, arena);
            for (int i = 0; i < n; i++) {
                va.setBigInteger(i, a[i]);
                vb.setBigInteger(i, b[i]);
                vc.setBigInteger(i, c[i]);
            }
            FieldVector h = Quotient.computeH(new Synthesized(va, vb, vc));

            BigInteger pm1 = p.subtract(BigInteger.ONE);
            BigInteger omega = BigInteger.valueOf(5).modPow(pm1.divide(BigInteger.valueOf(n)), p);
            BigInteger g = BigInteger.valueOf(5).modPow(pm1.divide(BigInteger.valueOf(2L * n)), p);
            BigInteger[] ca = interpolate(a, omega, p);
            BigInteger[] cb = interpolate(b, omega, p);
            BigInteger[] cc = interpolate(c, omega, p);
            BigInteger[] hOverZ = new BigInteger[n];
            BigInteger minusHalf = BigInteger.TWO.negate().mod(p).modInverse(p);
            long[] limbs = new long[f.limbs()];
            for (int j = 0; j < n; j++) {
                BigInteger x = g.multiply(omega.modPow(BigInteger.valueOf(j), p)).mod(p);
                BigInteger expected = eval(ca, x, p).multiply(eval(cb, x, p)).subtract(eval(cc, x, p)).mod(p);
                h.get(j, limbs, 0); // canonical limbs, not Montgomery
                BigInteger actual = PrimeField.limbsToBigInteger(limbs, 0, f.limbs());
                assertEquals(expected, actual, "h_" + j + " seed=" + seed);
                hOverZ[j] = actual.multiply(minusHalf).mod(p);
            }
            // interpolate on the coset: coefficients of q(g·X) through (ω^j, q(x_j)); degree is unchanged by the shift
            BigInteger[] q = interpolate(hOverZ, omega, p);
            assertEquals(BigInteger.ZERO, q[n - 1], "quotient degree must be ≤ N−2, seed=" + seed);
        }
    }
}
