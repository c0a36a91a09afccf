package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.snark.prover.DeviceCapacityException;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.PartitionWork;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.memory.Reservation;
import io.proofline.engine.Stage;
import io.proofline.engine.memory.TrackedBuffer;

import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One partition on its way through the pipeline, with everything it holds: the INPUT entry, its buffers,
 * its reservation and the adapter's intermediate results. Exactly one party owns it at a time (the queue,
 * the dispatcher, a synthesis worker, the hand-off, a proving worker, a finalizer); only the owner frees what
 * it holds. Others may only ask it to cancel.
 */
final class PartitionRun<S, P> {

    /** Priority first, then the older job, then the lower partition. */
    static final Comparator<PartitionRun<?, ?>> ORDER = Comparator
            .<PartitionRun<?, ?>>comparingInt(p -> -p.job.priority().ordinal())
            .thenComparingLong(p -> p.job.sequence())
            .thenComparingInt(p -> p.index);

    private final JobRun<S, P> job;
    private final int index;
    private final PartitionInput input;
    private final PartitionFootprint footprint;
    private final StageCounts counts;
    private final StageClock clock;
    private final PartitionBuffers buffers;
    private final TrackedBuffer inputEntry;
    private final AtomicBoolean finished = new AtomicBoolean();
    private final Set<String> faultedDevices = new HashSet<>();
    private final RoomRefusals room = new RoomRefusals();
    private volatile Stage stage = Stage.QUEUED;
    private volatile boolean cancelRequested;
    private volatile ProvingDevice device;
    private Thread owner;
    private Reservation reservation;
    private Runnable releaseKey;
    /** The bytes of a/b/c evaluated late, in prove start (see {@link io.proofline.engine.PartitionProver#lateAbcBytes}). */
    private Reservation lateAbc;
    private S synthesized;
    private P pending;
    private ProvingDevice pendingDevice;
    private ProofOutput output;
    private Throwable lastFault;

    PartitionRun(JobRun<S, P> job, int index, PartitionInput input, PartitionFootprint footprint,
                 BufferTracker tracker, StageCounts counts, long submittedNanos) {
        this.job = job;
        this.index = index;
        this.input = input;
        this.footprint = footprint;
        this.counts = counts;
        this.clock = new StageClock(submittedNanos);
        this.buffers = new PartitionBuffers(tracker, footprint);
        this.inputEntry = tracker.track(BufferClass.INPUT, Stage.QUEUED, input.heapBytes());
        counts.enter(Stage.QUEUED);
    }

    JobRun<S, P> job() {
        return job;
    }

    int index() {
        return index;
    }

    PartitionFootprint footprint() {
        return footprint;
    }

    PartitionBuffers buffers() {
        return buffers;
    }

    PartitionWork work() {
        return new PartitionWork(job.id(), index, job.circuit(), input);
    }

    Stage stage() {
        return stage;
    }

    synchronized void moveTo(Stage next) {
        Stage previous = stage;
        if (previous == next || previous.isTerminal()) {
            return;
        }
        stage = next;
        clock.enter(next, System.nanoTime());
        counts.move(previous, next);
        buffers.moveTo(next);
        inputEntry.moveTo(next);
    }

    // --- ownership and cancellation -------------------------------------------------------------

    /** The calling thread now works on this partition; a cancellation interrupts it. */
    synchronized void bindOwner() {
        owner = Thread.currentThread();
    }

    /** The calling thread is done with this partition; clears an interrupt meant for it. */
    synchronized void unbindOwner() {
        if (owner == Thread.currentThread()) {
            owner = null;
        }
        Thread.interrupted();
    }

    /** Marks the partition cancelled and interrupts whoever works on it. */
    void requestCancel() {
        cancelRequested = true;
        synchronized (this) {
            if (owner != null) {
                owner.interrupt();
            }
        }
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    // --- what it holds ---------------------------------------------------------------------------

    /** The dispatcher admitted this partition: it now holds its reservation and a use of its circuit's key. */
    synchronized void attach(KeyAdmission admission) {
        reservation = admission.partition();
        releaseKey = admission.releaseKey();
    }

    /** The INPUT upload is parsed: stop counting it. */
    void inputConsumed() {
        inputEntry.close();
    }

    synchronized void synthesized(S value) {
        synthesized = value;
    }

    synchronized S synthesized() {
        return synthesized;
    }

    /** Prove start returned {@code value} on {@code startedOn}; only that device may finish it. */
    synchronized void pending(P value, ProvingDevice startedOn) {
        pending = value;
        pendingDevice = startedOn;
        synthesized = null;
    }

    synchronized P pending() {
        return pending;
    }

    /**
     * The device that started the pending proof, checked against the partition's current device: a backend
     * may keep device buffers (or a device's stream) in the pending handle, so finishing it anywhere else
     * would be wrong, and a mismatch here is an engine bug, not a device fault.
     */
    synchronized ProvingDevice pendingDevice() {
        if (pendingDevice == null) {
            throw new IllegalStateException(this + ": no pending proof to finish");
        }
        if (device != pendingDevice) {
            throw new IllegalStateException(this + ": pending proof started on " + pendingDevice.id()
                    + " but the partition is now placed on " + (device == null ? "no device" : device.id()));
        }
        return pendingDevice;
    }

    void device(ProvingDevice value) {
        device = value;
    }

    ProvingDevice device() {
        return device;
    }

    synchronized void deviceFaulted(ProvingDevice faulty, Throwable fault) {
        faultedDevices.add(faulty.id());
        lastFault = fault;
        buffers.free(BufferClass.PENDING);
        releaseLateAbc();
    }

    /**
     * {@code full} refused the partition for capacity (not a fault): what prove start allocated is freed, and
     * placement leaves the device alone for a while ({@link RoomRefusals}).
     */
    synchronized void deviceFull(ProvingDevice full, DeviceCapacityException refusal, long poolCompletions) {
        room.refused(full.id(), refusal.everFits(), poolCompletions, refusal);
        buffers.free(BufferClass.PENDING);
        releaseLateAbc();
    }

    RoomRefusals room() {
        return room;
    }

    /** Holds {@code late} for a/b/c evaluated in prove start, and lets the buffers take that much ABC. */
    synchronized void attachLateAbc(Reservation late) {
        releaseLateAbc();
        lateAbc = late;
        buffers.allowLateAbc(late.bytes());
    }

    /** Frees late a/b/c and returns their reservation; nothing when there is none. */
    private void releaseLateAbc() {
        if (lateAbc != null) {
            buffers.free(BufferClass.ABC);
            lateAbc.close();
            lateAbc = null;
        }
    }

    synchronized Set<String> faultedDevices() {
        return Set.copyOf(faultedDevices);
    }

    synchronized Throwable lastFault() {
        return lastFault;
    }

    /** Prove start returned: the ABC buffers are dead and their bytes go back to the budget. */
    synchronized void abcDone() {
        releaseLateAbc();
        buffers.free(BufferClass.ABC);
        if (reservation != null) {
            reservation.release(Math.min(footprint.abc(), reservation.bytes()));
        }
    }

    synchronized void output(ProofOutput value) {
        output = value;
    }

    synchronized ProofOutput output() {
        return output;
    }

    /** Frees every buffer and returns the whole reservation; safe to call more than once. */
    synchronized void releaseAll() {
        buffers.close();
        if (lateAbc != null) {
            lateAbc.close();
            lateAbc = null;
        }
        inputEntry.close();
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

    boolean isFinished() {
        return finished.get();
    }

    /** True for the one caller that gets to finish this partition. */
    boolean claimFinish() {
        return finished.compareAndSet(false, true);
    }

    PartitionStatus status() {
        ProvingDevice d = device;
        return new PartitionStatus(index, stage, d == null ? "" : d.id(), clock.timings(System.nanoTime()));
    }

    @Override
    public String toString() {
        return job.id() + "#" + index;
    }
}
