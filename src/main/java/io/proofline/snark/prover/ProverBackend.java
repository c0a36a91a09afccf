package io.proofline.snark.prover;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

import java.util.Optional;

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
     * Why this backend cannot prove here (e.g. {@code no GPU available: <reason>}), or empty when it can. The CPU
     * backend always can; the service uses a backend only when this is empty.
     */
    default Optional<String> unavailableReason() {
        return Optional.empty();
    }

    /**
     * The backend for device {@code ordinal} of its kind (a GPU backend proves on one device); backends without
     * devices return themselves.
     */
    default ProverBackend onDevice(int ordinal) {
        return this;
    }

    /**
     * What this backend holds on its device (resident keys, working buffers), for the engine's buffer table; empty
     * for backends without device memory (the CPU one). Must not block on a running proof: it is read by metrics
     * scrapes and the console.
     */
    default Optional<DeviceUsage> deviceUsage() {
        return Optional.empty();
    }

    /**
     * A new backend instance for one logical device (its own worker, stream and resident keys, within its
     * share of the device's memory). Backends without devices return themselves; the default asks
     * {@link #onDevice(int)}.
     */
    default ProverBackend forDevice(DeviceShare share) {
        return onDevice(share.ordinal());
    }

    /**
     * Closes this backend's device context and worker and opens them anew, after a {@link DeviceFaultKind#STICKY}
     * fault left them unusable; backends without device state do nothing. Waits for a prove start in progress.
     *
     * @throws DeviceFaultException when the device cannot be opened again
     */
    default void reopen() {
    }

    /**
     * Frees {@code key}'s copy on this backend's device, if it is resident and no proof is using it: the caller is
     * about to close the key (its circuit was deleted, or its host copy evicted and later reloaded as a new
     * object), so the resident copy could never be used again. Returns whether it freed one; backends without
     * device memory return false.
     */
    default boolean evict(ProvingKey key) {
        return false;
    }

    /** The physical devices of this kind present (CUDA devices for a GPU backend); 1 for backends without devices. */
    default int deviceCount() {
        return 1;
    }


    /**
     * Computes H from {@code abc} (overwriting it: the caller may free it as soon as this returns) and the G1 MSMs:
     * {@code ΣA = Σ wᵢ·A[i]}, {@code ΣB1 = Σ wᵢ·B1[i]} over the whole witness, {@code ΣC = Σ_{i>ℓ} wᵢ·C[i]} and
     * {@code ΣH = Σ h_j·H[j]}.
     *
     * @throws DeviceFaultException when the device failed (not the inputs); its kind says whether it could not be
     *                              opened or needs a {@link #reopen()}
     * @throws DeviceCapacityException when the proof does not fit the device's memory (not a fault)
     * @throws java.util.concurrent.CancellationException when the calling thread was interrupted (its partition
     *                               cancelled) before the device work began
     */
    PendingProof proveStart(ProvingKey key, Witness witness, Synthesized abc);

    /**
     * Whether this backend evaluates a = A·w, b = B·w, c = a∘b itself, on its device, from the witness and the key's
     * rows resident there: callers then skip the host evaluation (and its memory) and call
     * {@link #proveStart(ProvingKey, Witness)}. False by default.
     */
    default boolean abcOnDevice() {
        return false;
    }

    /**
     * Prove start with a/b/c evaluated on the device; only for backends whose {@link #abcOnDevice()} is true.
     *
     * @throws UnsupportedOperationException from backends that read a/b/c from the host
     * @throws DeviceFaultException when the device failed (not the inputs); see the other prove start
     * @throws DeviceCapacityException when the proof does not fit the device's memory (not a fault)
     */
    default PendingProof proveStart(ProvingKey key, Witness witness) {
        throw new UnsupportedOperationException(name() + " reads a/b/c from the host: call proveStart with them");
    }

    /**
     * The G2 MSM {@code ΣB2 = Σ wᵢ·B2[i]} and the assembly with fresh random r, s:
     * {@code πA = ΣA + α + rδ}, {@code πB = ΣB2 + β₂ + sδ₂},
     * {@code πC = ΣC + ΣH + s·πA + r·(ΣB1 + β₁ + sδ₁) − rs·δ₁}.
     */
    Proof proveFinish(PendingProof pending);
}
