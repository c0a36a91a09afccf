package io.proofline.snark.prover;

import io.proofline.snark.ProvingKey;

import java.util.Optional;

/**
 * A {@link ProverBackend} that proves on a device of its own (a GPU), with the device's lifecycle: opened on first
 * use, reopened after a {@link DeviceFaultKind#STICKY} fault, closed; the key copies it keeps there freed on request;
 * its memory reported for the engine's buffer table. One instance is one logical device ({@link #forDevice}).
 */
public interface DeviceProverBackend extends ProverBackend, AutoCloseable {

    /**
     * Why this backend cannot prove here (e.g. {@code no GPU available: <reason>}), or empty when it can. Opens the
     * device, which a proof needs anyway; the service uses the backend only when this is empty.
     */
    Optional<String> unavailableReason();

    /** The physical devices of this kind present (CUDA devices); 0 without a driver or device. */
    int deviceCount();

    /**
     * A new instance for one logical device: its own worker, stream and resident keys, within its share of the
     * physical device's memory.
     */
    DeviceProverBackend forDevice(DeviceShare share);

    /**
     * What this backend holds on its device (resident keys, working buffers), for the engine's buffer table;
     * {@link DeviceUsage#NOTHING_HELD} before the device was opened. Must not block on a running proof: it is read by
     * metrics scrapes and the console.
     */
    DeviceUsage deviceUsage();

    /**
     * Closes the device context and worker and opens them anew, after a {@link DeviceFaultKind#STICKY} fault left
     * them unusable. Waits for a prove start in progress.
     *
     * @throws DeviceFaultException when the device cannot be opened again
     */
    void reopen();

    /**
     * Frees {@code key}'s copy on the device, if it is resident and no proof is using it: the caller is about to close
     * the key (its circuit was deleted, or its host copy evicted and later reloaded as a new object), so the resident
     * copy could never be used again. Returns whether it freed one.
     */
    boolean evict(ProvingKey key);

    /** Frees the device's buffers and releases its context; a later proof opens it again. */
    @Override
    void close();
}
