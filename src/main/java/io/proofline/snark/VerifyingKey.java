package io.proofline.snark;

import java.util.Objects;

/**
 * A Groth16 verifying key: {@code [α]₁, [β]₂, [γ]₂, [δ]₂} and {@code IC[0..ℓ]} (ℓ = nPublic), affine points with
 * Montgomery coordinates in the layout of {@link ProvingKey}.
 */
public final class VerifyingKey {

    private final SnarkCurve curve;
    private final int nPublic;
    private final long[] alpha1;
    private final long[] beta2;
    private final long[] gamma2;
    private final long[] delta2;
    private final long[] ic;

    public VerifyingKey(SnarkCurve curve, int nPublic, long[] alpha1, long[] beta2, long[] gamma2, long[] delta2,
                        long[] ic) {
        this.curve = Objects.requireNonNull(curve);
        int g1 = 2 * curve.fq().limbs();
        if (nPublic < 0 || alpha1.length != g1 || beta2.length != 2 * g1 || gamma2.length != 2 * g1
                || delta2.length != 2 * g1 || ic.length != (long) (nPublic + 1) * g1) {
            throw new IllegalArgumentException("verifying key points of the wrong size for " + curve);
        }
        this.nPublic = nPublic;
        this.alpha1 = alpha1.clone();
        this.beta2 = beta2.clone();
        this.gamma2 = gamma2.clone();
        this.delta2 = delta2.clone();
        this.ic = ic.clone();
    }

    /** The verifying part of a proving key. */
    public static VerifyingKey of(ProvingKey pk) {
        return new VerifyingKey(pk.curve(), pk.nPublic(), pk.alpha1(), pk.beta2(), pk.gamma2(), pk.delta2(), pk.ic());
    }

    public SnarkCurve curve() {
        return curve;
    }

    /** ℓ: the number of public signals. */
    public int nPublic() {
        return nPublic;
    }

    /** {@code [α]₁} (a copy). */
    public long[] alpha1() {
        return alpha1.clone();
    }

    /** {@code [β]₂} (a copy). */
    public long[] beta2() {
        return beta2.clone();
    }

    /** {@code [γ]₂} (a copy). */
    public long[] gamma2() {
        return gamma2.clone();
    }

    /** {@code [δ]₂} (a copy). */
    public long[] delta2() {
        return delta2.clone();
    }

    /** {@code IC[0..ℓ]}, flat G1 points (a copy). */
    public long[] ic() {
        return ic.clone();
    }
}
