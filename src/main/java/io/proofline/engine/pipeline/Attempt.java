package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.Reservation;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One try at a partition's proof and everything it holds: its buffers, its reservation, its use of the circuit's key
 * and the adapter's intermediate results. A partition has one current attempt; a {@link StepWatchdog} that finds a
 * port call (prove start, prove finish) overrunning its limit may {@linkplain #abandon() abandon} the attempt to that
 * call and give the partition a new one. The abandoned attempt keeps its memory reserved and its buffers alive,
 * because the call may still read them, until the thread stuck in the call returns and {@linkplain #close() closes}
 * it: a step that never returns holds its bytes for good, and they stay counted.
 */
final class Attempt<S, P> {

    private static final int IDLE = 0;
    private static final int IN_STEP = 1;
    private static final int ABANDONED = 2;

    private final PartitionBuffers buffers;
    private final AtomicInteger step = new AtomicInteger(IDLE);
    private Reservation reservation;
    private Runnable releaseKey;
    private S synthesized;
    private P pending;
    private ProvingDevice pendingDevice;

    Attempt(PartitionBuffers buffers) {
        this.buffers = buffers;
    }

    PartitionBuffers buffers() {
        return buffers;
    }

    synchronized void attach(KeyAdmission admission) {
        reservation = admission.partition();
        releaseKey = admission.releaseKey();
    }

    synchronized void synthesized(S value) {
        synthesized = value;
    }

    synchronized S synthesized() {
        return synthesized;
    }

    synchronized void pending(P value, ProvingDevice startedOn) {
        pending = value;
        pendingDevice = startedOn;
        synthesized = null;
    }

    synchronized P pending() {
        return pending;
    }

    synchronized ProvingDevice pendingDevice() {
        return pendingDevice;
    }

    /** Returns {@code bytes} of the reservation to the budget (the a/b/c once prove start returned). */
    synchronized void release(long bytes) {
        if (reservation != null) {
            reservation.release(Math.min(bytes, reservation.bytes()));
        }
    }

    /** A port call on this attempt starts; a watchdog may abandon the attempt to it from now on. */
    void beginStep() {
        step.compareAndSet(IDLE, IN_STEP);
    }

    /** The port call returned: false when a watchdog abandoned the attempt meanwhile (the caller then closes it). */
    boolean endStep() {
        return step.compareAndSet(IN_STEP, IDLE) || step.get() == IDLE;
    }

    /** Gives the attempt to its overrunning step: true when it was in a step and is now abandoned. */
    boolean abandon() {
        return step.compareAndSet(IN_STEP, ABANDONED);
    }

    boolean isAbandoned() {
        return step.get() == ABANDONED;
    }

    /** Frees every buffer, returns the reservation and ends the key's use; safe to call more than once. */
    synchronized void close() {
        buffers.close();
        if (reservation != null) {
            reservation.close();
        }
        if (releaseKey != null) {
            Runnable release = releaseKey;
            releaseKey = null;
            release.run();
        }
        synthesized = null;
        pending = null;
        pendingDevice = null;
    }

    /** Frees what prove start allocated on a device that then faulted or had no room (the rest stays held). */
    synchronized void undoProveStart() {
        buffers.free(BufferClass.PENDING);
        buffers.forbidLateAbc();
    }
}
