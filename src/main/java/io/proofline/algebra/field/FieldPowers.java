package io.proofline.algebra.field;

import java.math.BigInteger;

/**
 * Exponentiation in any {@link FieldOps} (prime field or extension), square-and-multiply from the most significant
 * bit. Allocates its temporaries: for setup and validation-time constants, not for hot loops.
 */
public final class FieldPowers {

    private FieldPowers() {
    }

    /** r = a^e for e ≥ 0. r may alias a. */
    public static void pow(FieldOps f, long[] a, int ao, BigInteger e, long[] r, int ro) {
        if (e.signum() < 0) {
            throw new IllegalArgumentException("negative exponent");
        }
        int w = f.width();
        long[] base = new long[w];
        f.copy(a, ao, base, 0);
        long[] acc = new long[w];
        f.setOne(acc, 0);
        for (int bit = e.bitLength() - 1; bit >= 0; bit--) {
            f.sqr(acc, 0, acc, 0);
            if (e.testBit(bit)) {
                f.mul(acc, 0, base, 0, acc, 0);
            }
        }
        f.copy(acc, 0, r, ro);
    }

    /** A new element a^e. */
    public static long[] pow(FieldOps f, long[] a, BigInteger e) {
        long[] r = new long[f.width()];
        pow(f, a, 0, e, r, 0);
        return r;
    }
}
