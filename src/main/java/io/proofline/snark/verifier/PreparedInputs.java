package io.proofline.snark.verifier;

/**
 * The public inputs folded into one G1 point, {@code [Σ pubᵢ·ICᵢ]₁ = IC₀ + Σᵢ₌₁..ℓ pubᵢ·ICᵢ} (arkworks'
 * {@code prepare_inputs}), affine Montgomery limbs.
 */
public record PreparedInputs(long[] point) {

    public PreparedInputs {
        point = point.clone();
    }

    @Override
    public long[] point() {
        return point.clone();
    }
}
