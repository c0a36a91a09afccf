package io.proofline.algebra.curve;

import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;

import java.math.BigInteger;

/**
 * The description of a prime-order subgroup of a short-Weierstrass curve y² = x³ + b over 𝔽p (a G1) or 𝔽p² (a G2):
 * immutable constants only, shared by all threads. Arithmetic goes through {@link #newOps()}, one per thread.
 *
 * @param name          e.g. {@code bn254.G1}
 * @param baseField     𝔽p (for a G2 the base of 𝔽p²)
 * @param overFp2       whether coordinates live in 𝔽p² = 𝔽p[u]/(u² + 1)
 * @param b             the curve constant, Montgomery form, {@link #fieldWidth()} longs
 * @param generator     the standard generator, affine ({@link Affine})
 * @param scalarField   𝔽r, r the subgroup order
 * @param subgroupCheck how {@link CurveOps#isInSubgroup} decides membership
 */
public record CurveGroup(String name, PrimeField baseField, boolean overFp2, long[] b, long[] generator,
                         PrimeField scalarField, SubgroupCheck subgroupCheck) {

    /** The subgroup order r. */
    public BigInteger order() {
        return scalarField.modulus();
    }

    /** A field-arithmetic object for the coordinate field: shared 𝔽p, or a new 𝔽p² (it has scratch). */
    public FieldOps newFieldOps() {
        return overFp2 ? new QuadraticField(baseField) : baseField;
    }

    /** A new arithmetic object with its own scratch: one per thread. */
    public CurveOps newOps() {
        return new CurveOps(this);
    }

    /** Longs per coordinate (limbs for 𝔽p, twice that for 𝔽p²). */
    public int fieldWidth() {
        return overFp2 ? 2 * baseField.limbs() : baseField.limbs();
    }

    /** Longs per affine point. */
    public int affineWidth() {
        return 2 * fieldWidth();
    }

    /** Bytes per affine point in the zkey layout (LE Montgomery limbs). */
    public int affineBytes() {
        return 8 * affineWidth();
    }

    /** The same curve with another subgroup check (used while deriving endomorphism constants). */
    public CurveGroup withSubgroupCheck(SubgroupCheck check) {
        return new CurveGroup(name, baseField, overFp2, b, generator, scalarField, check);
    }

    /** A new copy of the generator. */
    public long[] generatorCopy() {
        return generator.clone();
    }

    @Override
    public String toString() {
        return name;
    }
}
