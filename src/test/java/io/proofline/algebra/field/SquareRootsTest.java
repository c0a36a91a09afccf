package io.proofline.algebra.field;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SquareRootsTest {

    @Test
    void primeFieldRootsAgreeWithEulersCriterion() {
        for (PrimeField f : new PrimeField[] {Bn254.FQ, Bls12381.FQ}) {
            long seed = new SplittableRandom().nextLong();
            SplittableRandom rnd = new SplittableRandom(seed);
            BigInteger half = f.modulus().subtract(BigInteger.ONE).shiftRight(1);
            for (int i = 0; i < 50; i++) {
                long[] a = f.random(rnd);
                long[] r = new long[f.limbs()];
                boolean isSquare = f.toBigInteger(a).modPow(half, f.modulus()).equals(BigInteger.ONE);
                assertEquals(isSquare, SquareRoots.sqrt(f, a, 0, r, 0), f + " seed=" + seed);
                if (isSquare) {
                    assertArrayEquals(a, f.mul(r, r), f + " seed=" + seed);
                }
                long[] sq = f.mul(a, a);
                assertTrue(SquareRoots.sqrt(f, sq, 0, r, 0), f + " seed=" + seed);
                assertArrayEquals(sq, f.mul(r, r), f + " seed=" + seed);
            }
        }
    }

    @Test
    void quadraticFieldRootsOfSquaresAndNonSquares() {
        for (PrimeField fp : new PrimeField[] {Bn254.FQ, Bls12381.FQ}) {
            QuadraticField f = new QuadraticField(fp);
            long seed = new SplittableRandom().nextLong();
            SplittableRandom rnd = new SplittableRandom(seed);
            int n = fp.limbs();
            // an element is a square in 𝔽p² iff its norm a0² + a1² is a square in 𝔽p
            BigInteger half = fp.modulus().subtract(BigInteger.ONE).shiftRight(1);
            for (int i = 0; i < 40; i++) {
                long[] a = new long[2 * n];
                System.arraycopy(fp.random(rnd), 0, a, 0, n);
                if (i % 5 != 0) {                         // every fifth one lies in 𝔽p (a1 = 0)
                    System.arraycopy(fp.random(rnd), 0, a, n, n);
                }
                BigInteger a0 = fp.toBigInteger(a, 0), a1 = fp.toBigInteger(a, n);
                BigInteger norm = a0.multiply(a0).add(a1.multiply(a1)).mod(fp.modulus());
                boolean isSquare = norm.modPow(half, fp.modulus()).equals(BigInteger.ONE);
                long[] r = new long[2 * n];
                assertEquals(isSquare, SquareRoots.sqrt(f, a, 0, r, 0), fp + " seed=" + seed);
                long[] sq = new long[2 * n];
                f.sqr(a, 0, sq, 0);
                assertTrue(SquareRoots.sqrt(f, sq, 0, r, 0), fp + " seed=" + seed);
                long[] check = new long[2 * n];
                f.sqr(r, 0, check, 0);
                assertArrayEquals(sq, check, fp + " seed=" + seed);
            }
        }
    }
}
