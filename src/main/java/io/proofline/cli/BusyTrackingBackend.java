package io.proofline.cli;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.DeviceUsage;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.Synthesized;

import java.util.Optional;

/**
 * A device's backend as {@code bench pipeline} sees it: delegates everything, and measures the device's busy time —
 * the time during which at least one prove start is running on it (a second one waiting for the device's worker
 * counts once) — and how many prove starts it ran.
 */
final class BusyTrackingBackend implements ProverBackend {

    private final ProverBackend delegate;
    private int running;
    private long busySince;
    private long busyNanos;
    private long starts;

    BusyTrackingBackend(ProverBackend delegate) {
        this.delegate = delegate;
    }

    ProverBackend delegate() {
        return delegate;
    }

    /** Starts a new measurement (prove starts still running count from now). */
    synchronized void reset() {
        busyNanos = 0;
        starts = 0;
        busySince = System.nanoTime();
    }

    /** Busy nanoseconds since {@link #reset()}, including a prove start running now. */
    synchronized long busyNanos() {
        return busyNanos + (running > 0 ? System.nanoTime() - busySince : 0);
    }

    synchronized long starts() {
        return starts;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Optional<String> unavailableReason() {
        return delegate.unavailableReason();
    }

    @Override
    public Optional<DeviceUsage> deviceUsage() {
        return delegate.deviceUsage();
    }

    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, Synthesized abc) {
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

    private synchronized void enter() {
        if (running++ == 0) {
            busySince = System.nanoTime();
        }
    }

    private synchronized void leave() {
        starts++;
        if (--running == 0) {
            busyNanos += System.nanoTime() - busySince;
        }
    }
}
