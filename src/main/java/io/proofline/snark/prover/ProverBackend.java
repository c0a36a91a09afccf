package io.proofline.snark.prover;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

/**
 * A Groth16 prover split the way the pipeline drives it (DESIGN §2, §4): {@link #proveStart} does the heavy,
 * device-friendly part and consumes the a/b/c vectors; {@link #proveFinish} does the G2 MSM and the assembly with
 * fresh randomness, and can run on other threads while the device takes the next partition. The CPU backend and the
 * GPU backend implement it; both produce the same proofs up to the random r, s.
 */
public interface ProverBackend {

    /** A short name for logs and the CLI's {@code --backend} ({@code cpu}, {@code gpu}). */
    String name();

    /**
     * Computes H from {@code abc} (overwriting it: the caller may free it as soon as this returns) and the G1 MSMs:
     * {@code ΣA = Σ wᵢ·A[i]}, {@code ΣB1 = Σ wᵢ·B1[i]} over the whole witness, {@code ΣC = Σ_{i>ℓ} wᵢ·C[i]} and
     * {@code ΣH = Σ h_j·H[j]}.
     */
    PendingProof proveStart(ProvingKey key, Witness witness, Synthesized abc);

    /**
     * The G2 MSM {@code ΣB2 = Σ wᵢ·B2[i]} and the assembly with fresh random r, s:
     * {@code πA = ΣA + α + rδ}, {@code πB = ΣB2 + β₂ + sδ₂},
     * {@code πC = ΣC + ΣH + s·πA + r·(ΣB1 + β₁ + sδ₁) − rs·δ₁}.
     */
    Proof proveFinish(PendingProof pending);
}
