package io.proofline.algebra.field;

import java.math.BigInteger;

/**
 * Square roots in 𝔽p and in 𝔽p² = 𝔽p[u]/(u² + 1), for primes p ≡ 3 (mod 4) (both BN254's and BLS12-381's base
 * fields). A test helper that puts random x on a curve (points off the subgroup, invalid keys); it allocates.
 */
public final class SquareRoots {

    private SquareRoots() {
    }

    /**
     * r = √a in 𝔽p if a is a square (returns true; r is one of the two roots), else returns false and leaves r
     * unchanged. For p ≡ 3 (mod 4), a^((p+1)/4) is a root whenever one exists (Euler's criterion), one
     * exponentiation plus a squaring to check.
     */
    public static boolean sqrt(PrimeField f, long[] a, int ao, long[] r, int ro) {
        BigInteger p = f.modulus();
        if (!p.testBit(1)) {
            throw new UnsupportedOperationException(f.name() + ": square root implemented for p ≡ 3 (mod 4) only");
        }
        long[] c = f.pow(java.util.Arrays.copyOfRange(a, ao, ao + f.limbs()), p.add(BigInteger.ONE).shiftRight(2));
        long[] check = f.mul(c, c);
        if (!f.equal(check, 0, a, ao)) {
            return false;
        }
        System.arraycopy(c, 0, r, ro, f.limbs());
        return true;
    }

    /**
     * r = √a in 𝔽p² if a is a square. The norm method ("complex" square root, u² = −1): with a = a0 + a1·u and
     * α = √(a0² + a1²) ∈ 𝔽p, a root is x0 + x1·u where x0² = (a0 ± α)/2 (one sign gives a square) and
     * x1 = a1/(2·x0); when a1 = 0 and a0 is not a square in 𝔽p, the root is √(−a0)·u. The result is verified by
     * squaring, so a false return is always right.
     */
    public static boolean sqrt(QuadraticField f2, long[] a, int ao, long[] r, int ro) {
        PrimeField f = f2.base();
        int n = f.limbs();
        long[] a0 = java.util.Arrays.copyOfRange(a, ao, ao + n);
        long[] a1 = java.util.Arrays.copyOfRange(a, ao + n, ao + 2 * n);
        long[] root = new long[2 * n];
        if (f.isZero(a1, 0)) {
            if (!sqrt(f, a0, 0, root, 0)) {
                long[] minusA0 = f.neg(a0);
                if (!sqrt(f, minusA0, 0, root, n)) {
                    return false;
                }
                f.setZero(root, 0);
            }
        } else {
            long[] norm = f.add(f.mul(a0, a0), f.mul(a1, a1));
            long[] alpha = new long[n];
            if (!sqrt(f, norm, 0, alpha, 0)) {
                return false;
            }
            long[] half = f.inv(f.fromLong(2));
            long[] x0sq = f.mul(f.add(a0, alpha), half);
            long[] x0 = new long[n];
            if (!sqrt(f, x0sq, 0, x0, 0)) {
                x0sq = f.mul(f.sub(a0, alpha), half);
                if (!sqrt(f, x0sq, 0, x0, 0)) {
                    return false;
                }
            }
            long[] x1 = f.mul(a1, f.inv(f.add(x0, x0)));
            System.arraycopy(x0, 0, root, 0, n);
            System.arraycopy(x1, 0, root, n, n);
        }
        long[] check = new long[2 * n];
        f2.sqr(root, 0, check, 0);
        if (!f2.equal(check, 0, a, ao)) {
            return false;
        }
        System.arraycopy(root, 0, r, ro, 2 * n);
        return true;
    }
}
