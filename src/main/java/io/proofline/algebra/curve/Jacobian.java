package io.proofline.algebra.curve;

/**
 * Jacobian projective coordinates (X, Y, Z) with x = X/Z², y = Y/Z³, stored flat as {@code X‖Y‖Z} ({@code 3·w}
 * longs). Z = 0 is the point at infinity (written as all zeros by {@link CurveOps}).
 *
 * <p>Formulas for a = 0 from the Explicit-Formulas Database (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html),
 * implemented in {@link CurveOps}: doubling dbl-2009-l (2M + 5S), addition add-2007-bl (11M + 5S), mixed addition
 * with an affine point madd-2007-bl (7M + 4S). Used for scalar multiplication and subgroup checks.
 */
public final class Jacobian {

    private Jacobian() {
    }

    /** Longs per Jacobian point for a field of width {@code w}. */
    public static int width(int fieldWidth) {
        return 3 * fieldWidth;
    }
}
