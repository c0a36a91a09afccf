package io.proofline.snark;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.pairing.Pairing;
import io.proofline.algebra.pairing.PairingCurve;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A pairing-friendly curve as the snark layer sees it: the name snarkjs gives it in its JSON files ({@code bn128},
 * {@code bls12381}), the base field 𝔽q that point coordinates live in and the scalar field 𝔽r of witnesses and
 * exponents, the groups G1 ⊂ E(𝔽q) and G2 ⊂ E'(𝔽q²), and the pairing e: G1 × G2 → 𝔽q¹². Instances are found through {@link SnarkCurves}, by
 * name or by the primes a file header declares.
 */
public final class SnarkCurve {

    private final String name;
    private final PrimeField fq;
    private final PrimeField fr;
    private final CurveGroup g1;
    private final CurveGroup g2;
    /**
     * The pairing's constants, read when first needed: deriving them (the tower's Frobenius coefficients) is slow in
     * a cold JVM, and a one-shot proof never pairs.
     */
    private final Supplier<PairingCurve> pairing;

    SnarkCurve(String name, CurveGroup g1, CurveGroup g2, Supplier<PairingCurve> pairing) {
        this.name = Objects.requireNonNull(name);
        this.g1 = Objects.requireNonNull(g1);
        this.g2 = Objects.requireNonNull(g2);
        this.pairing = Objects.requireNonNull(pairing);
        this.fq = g1.baseField();
        this.fr = g1.scalarField();
        if (g2.baseField() != fq || g2.scalarField() != fr) {
            throw new IllegalArgumentException(name + ": G1 and G2 over different fields");
        }
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

    /** G1 ⊂ E(𝔽q), order r. */
    public CurveGroup g1() {
        return g1;
    }

    /** G2 ⊂ E'(𝔽q²), order r. */
    public CurveGroup g2() {
        return g2;
    }

    /** The optimal ate pairing's constants. */
    public PairingCurve pairingCurve() {
        return pairing.get();
    }

    /** A new pairing engine: it has scratch, so one per thread. */
    public Pairing newPairing() {
        return new Pairing(pairing.get());
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
