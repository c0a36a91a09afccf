package io.proofline.lab.bench;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProverBackend;

/**
 * A device's backend as {@code bench pipeline} sees it: delegates everything, and measures the device's busy time —
 * the time during which at least one prove start is running on it (a second one waiting for the device's worker
 * counts once) — and, through a clock shared by the logical devices of one GPU, the GPU's. A backend with a device of
 * its own is wrapped by {@link BusyTrackingDeviceBackend}, which passes its device's lifecycle through.
 */
class BusyTrackingBackend implements ProverBackend {

    private final ProverBackend delegate;
    private final BusyClock device;
    private final BusyClock physical;

    /** {@code physical}: the clock of the GPU this logical device runs on, shared with its other logical devices. */
    BusyTrackingBackend(ProverBackend delegate, BusyClock physical) {
        this.delegate = delegate;
        this.device = new BusyClock(delegate.name());
        this.physical = physical;
    }

    /** A device that shares its hardware with no other logical device. */
    BusyTrackingBackend(ProverBackend delegate) {
        this(delegate, new BusyClock(delegate.name()));
    }

    /** Starts a new measurement of this device and of its physical device. */
    void reset() {
        device.reset();
        physical.reset();
    }

    /** Busy nanoseconds of this logical device since {@link #reset()}. */
    long busyNanos() {
        return device.busyNanos();
    }

    /** Prove starts this logical device ran since {@link #reset()}. */
    long starts() {
        return device.activities();
    }

    /** The clock of the physical device (the same object for the logical devices of one GPU). */
    BusyClock physical() {
        return physical;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public boolean abcOnDevice() {
        return delegate.abcOnDevice();
    }

    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc) {
        enter();
        try {
            return delegate.proveStart(key, witness, abc);
        } finally {
            leave();
        }
    }

    @Override
    public Proof proveFinish(PendingProof pending) {
        return delegate.proveFinish(pending);
    }

    private void enter() {
        device.enter();
        physical.enter();
    }

    private void leave() {
        device.leave();
        physical.leave();
    }
}
