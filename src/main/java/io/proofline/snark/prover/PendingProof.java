package io.proofline.snark.prover;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

/**
 * What {@link ProverBackend#proveFinish} still needs after {@link ProverBackend#proveStart}: the key and the witness
 * (for the G2 MSM) and the four G1 sums as affine points in the key's layout (the {@code PENDING} buffer class; the
 * points are small, the witness is what it keeps alive).
 *
 * @param sumA  {@code Σ wᵢ·A[i]}
 * @param sumB1 {@code Σ wᵢ·B1[i]}
 * @param sumC  {@code Σ_{i>ℓ} wᵢ·C[i]}
 * @param sumH  {@code Σ h_j·H[j]}
 * @param sumB2 {@code Σ wᵢ·B2[i]} when prove start computed it too (a GPU backend configured to run the G2 MSM on
 *              the device), else {@code null}: prove finish computes it
 */
public record PendingProof(ProvingKey key, Witness witness, long[] sumA, long[] sumB1, long[] sumC, long[] sumH,
                           long[] sumB2) {

    /** The four G1 sums; ΣB2 is left to prove finish. */
    public PendingProof(ProvingKey key, Witness witness, long[] sumA, long[] sumB1, long[] sumC, long[] sumH) {
        this(key, witness, sumA, sumB1, sumC, sumH, null);
    }

    /** Whether prove start already computed ΣB2. */
    public boolean hasSumB2() {
        return sumB2 != null;
    }
}
