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
 */
public record PendingProof(ProvingKey key, Witness witness, long[] sumA, long[] sumB1, long[] sumC, long[] sumH) {
}
