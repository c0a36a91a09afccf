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
import io.proofline.engine.Priority;
import io.proofline.engine.Stage;
import io.proofline.engine.TenantShare;
import io.proofline.engine.memory.TrackedBuffer;

import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One partition on its way through the pipeline: its place in the order, its stage, its cancellation, the devices
 * that faulted on it, and its current {@link Attempt} with everything that holds memory. Exactly one party owns it
 * at a time (the queue, the dispatcher, a synthesis worker, the hand-off, a proving worker, a finalizer); only the
 * owner frees what it holds. Others may only ask it to cancel, and a {@link StepWatchdog} may move it on from a step
 * that overran ({@link #restart()}), leaving the old attempt to the stuck call.
 */
final class PartitionRun<S, P> implements Queued {

    /**
     * The place the queue gave the partition ({@link QueuePlace}: priority, then fairness between tenants, then
     * arrival); the hand-off to the devices keeps the same order.
     */
    static final Comparator<PartitionRun<?, ?>> ORDER = Comparator.comparing(PartitionRun::place);

    private final JobRun<S, P> job;
    private final int index;
    private final PartitionInput input;
    private final PartitionFootprint footprint;
    /** The a/b/c bytes a device may need evaluated in prove start beyond the footprint, reserved with it. */
    private final long lateAbc;
    private final BufferTracker tracker;
    private final StageCounts counts;
    private final StageClock clock;
    private final TrackedBuffer inputEntry;
    private final AtomicBoolean finished = new AtomicBoolean();
    private final Set<String> faultedDevices = new HashSet<>();
    private final RoomRefusals room = new RoomRefusals();
    private volatile Stage stage = Stage.QUEUED;
    private volatile boolean cancelRequested;
    private volatile ProvingDevice device;
    private volatile QueuePlace place;
    private Thread owner;
    private Attempt<S, P> attempt;
    private ProofOutput output;
    private Throwable lastFault;

    PartitionRun(JobRun<S, P> job, int index, PartitionInput input, PartitionFootprint footprint, long lateAbc,
                 BufferTracker tracker, StageCounts counts, long submittedNanos) {
        this.job = job;
        this.index = index;
        this.input = input;
        this.footprint = footprint;
        this.lateAbc = lateAbc;
        this.tracker = tracker;
        this.counts = counts;
        this.clock = new StageClock(submittedNanos);
        this.attempt = new Attempt<>(new PartitionBuffers(tracker, footprint));
        this.inputEntry = tracker.track(BufferClass.INPUT, Stage.QUEUED, input.heapBytes());
        counts.enter(Stage.QUEUED);
    }

    JobRun<S, P> job() {
        return job;
    }

    int index() {
        return index;
    }

    @Override
    public Priority priority() {
        return job.priority();
    }

    @Override
    public TenantShare share() {
        return job.share();
    }

    @Override
    public QueuePlace place() {
        return place;
    }

    @Override
    public void place(QueuePlace value) {
        if (place != null) {
            throw new IllegalStateException(this + " already has its place " + place);
        }
        place = value;
    }

    PartitionFootprint footprint() {
        return footprint;
    }

    /**
     * The most a/b/c a device may need evaluated in prove start beyond the footprint (the CPU fallback beside GPUs):
     * admission reserves them with the footprint, so that no path the partition may take reserves anything later
     * while it holds memory others wait for.
     */
    long lateAbc() {
        return lateAbc;
    }

    synchronized Attempt<S, P> attempt() {
        return attempt;
    }

    PartitionBuffers buffers() {
        return attempt().buffers();
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
        attempt.buffers().moveTo(next);
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
    void attach(KeyAdmission admission) {
        attempt().attach(admission);
    }

    /** The INPUT upload is parsed: stop counting it. */
    void inputConsumed() {
        inputEntry.close();
    }

    /**
     * Gives the partition a new attempt after its current one was {@linkplain Attempt#abandon() abandoned} to a
     * step that overran: the partition goes back to QUEUED with nothing held, its place in the order unchanged, its
     * owner no longer the stuck thread (which closes the old attempt when its call returns).
     */
    synchronized void restart() {
        attempt = new Attempt<>(new PartitionBuffers(tracker, footprint));
        owner = null;
        device = null;
        moveTo(Stage.QUEUED);
    }

    /** Prove start returned {@code value} on {@code startedOn}; only that device may finish it. */
    void pending(P value, ProvingDevice startedOn) {
        attempt().pending(value, startedOn);
    }

    /**
     * The device that started the pending proof, checked against the partition's current device: a backend
     * may keep device buffers (or a device's stream) in the pending handle, so finishing it anywhere else
     * would be wrong, and a mismatch here is an engine bug, not a device fault.
     */
    synchronized ProvingDevice pendingDevice() {
        ProvingDevice startedOn = attempt.pendingDevice();
        if (startedOn == null) {
            throw new IllegalStateException(this + ": no pending proof to finish");
        }
        if (device != startedOn) {
            throw new IllegalStateException(this + ": pending proof started on " + startedOn.id()
                    + " but the partition is now placed on " + (device == null ? "no device" : device.id()));
        }
        return startedOn;
    }

    void device(ProvingDevice value) {
        device = value;
    }

    ProvingDevice device() {
        return device;
    }

    /** {@code faulty} faulted in prove start: what that allocated is freed, and the device left out from now on. */
    synchronized void deviceFaulted(ProvingDevice faulty, Throwable fault) {
        exclude(faulty, fault);
        attempt.undoProveStart();
    }

    /** Leaves {@code faulty} out for this partition from now on (a fault, or a step that hung on it). */
    synchronized void exclude(ProvingDevice faulty, Throwable fault) {
        faultedDevices.add(faulty.id());
        lastFault = fault;
    }

    /**
     * {@code full} refused the partition for capacity (not a fault): what prove start allocated is freed, and
     * placement leaves the device alone for a while ({@link RoomRefusals}).
     */
    synchronized void deviceFull(ProvingDevice full, DeviceCapacityException refusal, long poolCompletions) {
        room.refused(full.id(), refusal.everFits(), poolCompletions, refusal);
        attempt.undoProveStart();
    }

    RoomRefusals room() {
        return room;
    }

    /**
     * Lets prove start on a device that evaluates a/b/c on the host allocate {@code bytes} of them, out of what
     * admission reserved for that ({@link #admissionBytes()}).
     */
    synchronized void allowLateAbc(long bytes) {
        if (bytes > lateAbc) {
            throw new IllegalStateException(this + ": a device needs " + bytes + " B of a/b/c in prove start but "
                    + lateAbc + " B were reserved for them");
        }
        attempt.buffers().allowLateAbc(bytes);
    }

    synchronized Set<String> faultedDevices() {
        return Set.copyOf(faultedDevices);
    }

    synchronized Throwable lastFault() {
        return lastFault;
    }

    /** Prove start returned: the ABC buffers are dead and their bytes (late ones included) go back to the budget. */
    synchronized void abcDone() {
        attempt.buffers().free(BufferClass.ABC);
        attempt.release(footprint.abc() + lateAbc);
    }

    synchronized void output(ProofOutput value) {
        output = value;
    }

    synchronized ProofOutput output() {
        return output;
    }

    /** Frees every buffer of the current attempt and returns its reservation; safe to call more than once. */
    synchronized void releaseAll() {
        attempt.close();
        inputEntry.close();
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
