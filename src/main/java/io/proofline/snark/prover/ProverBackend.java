package io.proofline.snark.prover;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

/**
 * A Groth16 prover split the way the pipeline drives it (DESIGN §2, §4): {@link #proveStart} does the heavy,
 * device-friendly part and consumes a/b/c; {@link #proveFinish} does the G2 MSM and the assembly with fresh
 * randomness, and can run on other threads while the device takes the next partition. The CPU backend and the GPU
 * backend implement it; both produce the same proofs up to the random r, s. A backend with a device of its own is a
 * {@link DeviceProverBackend}, which adds the device's lifecycle.
 */
public interface ProverBackend {

    /** A short name for logs and the CLI's {@code --backend} ({@code cpu}, {@code gpu}). */
    String name();

    /**
     * Whether this backend evaluates a = A·w, b = B·w, c = a∘b itself, on its device, from the witness and the key's
     * rows resident there: callers then skip the host evaluation (and its memory) and pass {@link AbcSource#DEVICE}.
     * False by default.
     */
    default boolean abcOnDevice() {
        return false;
    }

    /**
     * Computes H from a/b/c (host vectors are overwritten: the caller may free them as soon as this returns) and the
     * G1 MSMs: {@code ΣA = Σ wᵢ·A[i]}, {@code ΣB1 = Σ wᵢ·B1[i]} over the whole witness,
     * {@code ΣC = Σ_{i>ℓ} wᵢ·C[i]} and {@code ΣH = Σ h_j·H[j]}.
     *
     * @param abc where a/b/c come from: {@link AbcSource#DEVICE} only where {@link #abcOnDevice()} is true
     * @throws IllegalArgumentException for a/b/c of another domain, or on the device of a backend that evaluates none
     * @throws DeviceFaultException when the device failed (not the inputs); its kind says whether it could not be
     *                              opened or needs a {@link DeviceProverBackend#reopen()}
     * @throws DeviceCapacityException when the proof does not fit the device's memory (not a fault)
     * @throws java.util.concurrent.CancellationException when the calling thread was interrupted (its partition
     *                              cancelled) before the device work began
     */
    PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc);

    /**
     * The G2 MSM {@code ΣB2 = Σ wᵢ·B2[i]} and the assembly with fresh random r, s:
     * {@code πA = ΣA + α + rδ}, {@code πB = ΣB2 + β₂ + sδ₂},
     * {@code πC = ΣC + ΣH + s·πA + r·(ΣB1 + β₁ + sδ₁) − rs·δ₁}.
     */
    Proof proveFinish(PendingProof pending);
}
