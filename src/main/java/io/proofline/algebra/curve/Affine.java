package io.proofline.algebra.curve;

/**
 * Affine coordinates (x, y) on y² = x³ + b, stored flat as {@code x‖y}: {@code 2·w} longs where {@code w} is the
 * field width ({@link CurveGroup#fieldWidth()}), each coordinate in Montgomery form. This is exactly the layout of a
 * point in a snarkjs {@code .zkey} section (G2: {@code x.c0‖x.c1‖y.c0‖y.c1}).
 *
 * <p>The point at infinity is encoded as all zeros, as snarkjs does: (0, 0) is never on these curves (b ≠ 0).
 */
public final class Affine {

    private Affine() {
    }

    /** Longs per affine point for a field of width {@code w}. */
    public static int width(int fieldWidth) {
        return 2 * fieldWidth;
    }

    /** Whether the point at {@code o} is the all-zero encoding of infinity. */
    public static boolean isInfinity(long[] p, int o, int fieldWidth) {
        long acc = 0;
        for (int i = 0; i < 2 * fieldWidth; i++) {
            acc |= p[o + i];
        }
        return acc == 0;
    }

    public static void setInfinity(long[] p, int o, int fieldWidth) {
        java.util.Arrays.fill(p, o, o + 2 * fieldWidth, 0L);
    }
}
