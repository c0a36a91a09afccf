package io.proofline.engine.pipeline;

import io.proofline.algebra.poly.TwiddleCache;
import io.proofline.engine.AdmissionTimeoutException;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.snark.prover.DeviceCapacityException;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.AdmissionPolicy;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.PartitionProver;
import io.proofline.engine.PartitionTooLargeException;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.Reservation;
import io.proofline.engine.Stage;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * The proving workers (one per device permit): take the next partition from the hand-off, place it on the
 * least-loaded device, run prove start, free ABC and return its bytes, and pass the partition to a finalizer.
 * A device fault sends the partition back to the hand-off, to be placed on another device; so does a device without
 * room for it, which is no fault: the partition then goes where it fits or waits for room (see {@link DevicePool}).
 *
 * <p>When the partition's footprint left a/b/c to the devices and the device it got reads them from the host (the
 * CPU fallback beside GPUs), their bytes are reserved here, after placement and before prove start — evicting idle
 * keys first, waiting if need be — and returned with the ABC buffers when prove start ends or faults.
 */
final class ProveStartWorkers<S, P> {

    private final PartitionProver<S, P> prover;
    private final Handoff<PartitionRun<S, P>> handoff;
    private final DevicePool devices;
    private final FinalizeWorkers<S, P> finalizers;
    private final Lifecycle<S, P> lifecycle;
    private final BufferTracker tracker;
    private final MemoryBudget budget;
    private final AdmissionPolicy admission;
    private final KeyResidency keys;
    private final Duration admissionWait;
    /** Bound for prove start: the CPU backend's transforms take their twiddle tables from it. */
    private final TwiddleCache twiddles;
    private volatile boolean stopped;

    ProveStartWorkers(PartitionProver<S, P> prover, Handoff<PartitionRun<S, P>> handoff, DevicePool devices,
                 FinalizeWorkers<S, P> finalizers, Lifecycle<S, P> lifecycle, BufferTracker tracker,
                 MemoryBudget budget, AdmissionPolicy admission, KeyResidency keys, Duration admissionWait, TwiddleCache twiddles) {
        this.prover = prover;
        this.handoff = handoff;
        this.devices = devices;
        this.finalizers = finalizers;
        this.lifecycle = lifecycle;
        this.tracker = tracker;
        this.budget = budget;
        this.admission = admission;
        this.keys = keys;
        this.admissionWait = admissionWait;
        this.twiddles = twiddles;
    }

    void start(ExecutorService pool) {
        for (int i = 0; i < devices.workers(); i++) {
            pool.execute(this::work);
        }
    }

    /** Workers leave after their current partition; the pool must also be interrupted to leave a wait. */
    void stop() {
        stopped = true;
    }

    private void work() {
        while (!stopped) {
            PartitionRun<S, P> partition;
            try {
                partition = handoff.take();
            } catch (InterruptedException e) {
                return;
            }
            prove(partition);
        }
    }

    private void prove(PartitionRun<S, P> partition) {
        partition.bindOwner();
        try {
            if (partition.cancelRequested()) {
                lifecycle.finish(partition, Stage.CANCELLED, null);
                return;
            }
            if (!startOnDevice(partition)) {
                return;
            }
            partition.abcDone();
            if (partition.cancelRequested()) {
                lifecycle.finish(partition, Stage.CANCELLED, null);
                return;
            }
            partition.moveTo(Stage.FINALIZING);
            tracker.event(partition + " proved start");
            finalizers.start(partition);
        } catch (Throwable t) {
            lifecycle.fail(partition, t);
        } finally {
            partition.unbindOwner();
        }
    }

    /**
     * Runs prove start; false when a device fault or a device without room for the partition sent it back to the
     * hand-off.
     */
    private boolean startOnDevice(PartitionRun<S, P> partition) throws Exception {
        try (DevicePool.Lease lease = devices.acquire(partition)) {
            ProvingDevice device = lease.device();
            partition.device(device);
            partition.moveTo(Stage.PROVING);
            tracker.event(partition + " proving on " + device.id());
            try {
                lease.prepare();
                reserveLateAbc(partition, device);
                // Placement and the late reservation may have waited: a partition cancelled meanwhile must not
                // start a prove on the device (the cancellation's interrupt does not stop a device call).
                if (partition.cancelRequested()) {
                    throw new InterruptedException(partition + " was cancelled before prove start");
                }
                P pending = ScopedValue.where(TwiddleCache.CURRENT, twiddles)
                        .call(() -> prover.proveStart(device, partition.synthesized(), partition.buffers()));
                lease.succeeded();
                partition.pending(pending, device);
                return true;
            } catch (DeviceFaultException fault) {
                lease.faulted(fault);
                partition.deviceFaulted(device, fault);
                partition.moveTo(Stage.AWAITING_DEVICE);
                handoff.requeue(partition);
                tracker.event(partition + " device fault (" + fault.kind() + ") on " + device.id());
                return false;
            } catch (DeviceCapacityException full) {
                // Not the device's fault: its breaker is untouched (the lease closes as abandoned).
                partition.deviceFull(device, full, devices.completions());
                partition.moveTo(Stage.AWAITING_DEVICE);
                handoff.requeue(partition);
                tracker.event(partition + " no room on " + device.id() + ": " + full.getMessage());
                return false;
            }
        }
    }

    /** Reserves the a/b/c that {@code device} needs evaluated on the host in prove start, if any. */
    private void reserveLateAbc(PartitionRun<S, P> partition, ProvingDevice device) throws InterruptedException {
        long late = admission.lateBytes(prover.lateAbcBytes(device, partition.job().circuit()));
        if (late <= 0) {
            return;
        }
        // the partition's key is resident and in use meanwhile: all three must fit together
        long total = Math.addExact(Math.addExact(partition.footprint().total(), late),
                keys.keyBytes(partition.job().circuit().id()));
        if (!budget.canEverFit(total)) {
            throw new PartitionTooLargeException(partition.job().circuit().id(), total, budget.total());
        }
        Optional<Reservation> now = budget.tryAcquire(late);
        if (now.isEmpty()) {
            long lacking = late - budget.available();
            if (twiddles.evictUnused(lacking) < lacking) {
                keys.evictUnused(late - budget.available(), List.of());
            }
        }
        // bounded like the dispatcher's wait: past it the job ends retryably instead of holding its device lease
        Reservation reservation = now.isPresent() ? now.get() : budget.acquire(late, admissionWait)
                .orElseThrow(() -> new AdmissionTimeoutException(partition.job().id(), late, admissionWait));
        partition.attachLateAbc(reservation);
        tracker.event(partition + " reserved " + late + " B for a/b/c on " + device.id());
    }
}
