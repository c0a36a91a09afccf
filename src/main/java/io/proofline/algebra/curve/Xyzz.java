package io.proofline.algebra.curve;

/**
 * Extended Jacobian "XYZZ" coordinates (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ and ZZ³ = ZZZ², stored flat as
 * {@code X‖Y‖ZZ‖ZZZ} ({@code 4·w} longs); ZZ = 0 is infinity. The bucket representation of MSMs (sppark's
 * {@code ec/xyzz_t.hpp}): adding an affine point costs less than in Jacobian and needs no squaring of Z.
 *
 * <p>Formulas for a = 0 from the EFD (hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html), implemented in
 * {@link CurveOps}: mixed addition madd-2008-s (8M + 2S), affine doubling mdbl-2008-s (3M + 2S with a
 * = 0), addition add-2008-s (12M + 2S), doubling dbl-2008-s-1 (6M + 3S).
 */
public final class Xyzz {

    private Xyzz() {
    }

    /** Longs per XYZZ point for a field of width {@code w}. */
    public static int width(int fieldWidth) {
        return 4 * fieldWidth;
    }
}
