package io.proofline.snark;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;
import java.util.Objects;

/**
 * A pairing-friendly curve as the snark layer sees it: the name snarkjs gives it in its JSON files ({@code bn128},
 * {@code bls12381}), the base field 𝔽q that point coordinates live in and the scalar field 𝔽r of witnesses and
 * exponents. Instances are found through {@link SnarkCurves}, by name or by the primes a file header declares.
 *
 * <p>{@code g1B} and {@code g2B} are the Weierstrass coefficients {@code b} of E: y² = x³ + b over 𝔽q and of the
 * sextic twist E': y² = x³ + b' over 𝔽q² = 𝔽q[u]/(u² + 1), both as canonical integers ({@code g2B} as
 * {@code {c0, c1}}, b' = c0 + c1·u). They are what the point validation of a loaded key needs.
 */
public final class SnarkCurve {

    private final String name;
    private final PrimeField fq;
    private final PrimeField fr;
    private final BigInteger g1B;
    private final BigInteger[] g2B;

    SnarkCurve(String name, PrimeField fq, PrimeField fr, BigInteger g1B, BigInteger g2BC0, BigInteger g2BC1) {
        this.name = Objects.requireNonNull(name);
        this.fq = Objects.requireNonNull(fq);
        this.fr = Objects.requireNonNull(fr);
        this.g1B = g1B;
        this.g2B = new BigInteger[] {g2BC0, g2BC1};
    }

    /** snarkjs's name of the curve: the {@code "curve"} value of its JSON files. */
    public String name() {
        return name;
    }

    /** The base field 𝔽q of point coordinates. */
    public PrimeField fq() {
        return fq;
    }

    /** The scalar field 𝔽r (the group order): witness values, coefficients, public signals. */
    public PrimeField fr() {
        return fr;
    }

    /** {@code b} of the G1 curve equation y² = x³ + b. */
    public BigInteger g1B() {
        return g1B;
    }

    /** {@code b'} of the G2 twist equation, as {@code {c0, c1}}. */
    public BigInteger[] g2B() {
        return g2B.clone();
    }

    /** Bytes of an affine G1 point in snarkjs's encoding: x‖y. */
    public int g1Bytes() {
        return 2 * fq.bytes();
    }

    /** Bytes of an affine G2 point in snarkjs's encoding: x.c0‖x.c1‖y.c0‖y.c1. */
    public int g2Bytes() {
        return 4 * fq.bytes();
    }

    @Override
    public String toString() {
        return name;
    }
}
