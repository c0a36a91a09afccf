package io.proofline.snark;

import java.util.Objects;

/**
 * A Groth16 proof {@code (πA ∈ G1, πB ∈ G2, πC ∈ G1)}, affine points with Montgomery coordinates in the layout of
 * {@link ProvingKey} (all zeros = infinity).
 */
public final class Proof {

    private final SnarkCurve curve;
    private final long[] a;
    private final long[] b;
    private final long[] c;

    public Proof(SnarkCurve curve, long[] a, long[] b, long[] c) {
        this.curve = Objects.requireNonNull(curve);
        int g1 = 2 * curve.fq().limbs();
        if (a.length != g1 || b.length != 2 * g1 || c.length != g1) {
            throw new IllegalArgumentException("proof points of the wrong size for " + curve);
        }
        this.a = a.clone();
        this.b = b.clone();
        this.c = c.clone();
    }

    public SnarkCurve curve() {
        return curve;
    }

    /** πA = [α + Σ wᵢuᵢ(τ) + rδ]₁ (a copy). */
    public long[] a() {
        return a.clone();
    }

    /** πB = [β + Σ wᵢvᵢ(τ) + sδ]₂ (a copy). */
    public long[] b() {
        return b.clone();
    }

    /** πC (a copy). */
    public long[] c() {
        return c.clone();
    }
}
