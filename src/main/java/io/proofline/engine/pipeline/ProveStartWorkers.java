package io.proofline.engine.pipeline;

import io.proofline.algebra.poly.TwiddleCache;
import io.proofline.engine.PartitionProver;
import io.proofline.snark.prover.DeviceCapacityException;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.Stage;

import java.util.concurrent.ExecutorService;

/**
 * The proving workers (one per device permit): take the next partition from the hand-off, place it on the
 * least-loaded device, run prove start, free ABC and return its bytes, and pass the partition to a finalizer.
 * A device fault sends the partition back to the hand-off, to be placed on another device; so does a device without
 * room for it, which is no fault: the partition then goes where it fits or waits for room (see {@link DevicePool}).
 * Prove start runs under the {@link StepWatchdog}: a call that overruns the step timeout while another device could
 * take the partition is left to itself with its attempt, and the partition goes back to the queue.
 *
 * <p>When the partition's footprint left a/b/c to the devices and the device it got reads them from the host (the
 * CPU fallback beside GPUs), prove start evaluates them into ABC buffers whose bytes admission reserved with the
 * partition ({@link PartitionRun#admissionBytes()}): nothing is reserved here, while the partition holds its witness,
 * its key and a device permit that others may wait for.
 */
final class ProveStartWorkers<S, P> {

    private final PartitionProver<S, P> prover;
    private final Handoff<PartitionRun<S, P>> handoff;
    private final DevicePool devices;
    private final FinalizeWorkers<S, P> finalizers;
    private final Lifecycle<S, P> lifecycle;
    private final BufferTracker tracker;
    private final StepWatchdog<S, P> watchdog;
    /** Bound for prove start: the CPU backend's transforms take their twiddle tables from it. */
    private final TwiddleCache twiddles;
    private volatile boolean stopped;

    ProveStartWorkers(PartitionProver<S, P> prover, Handoff<PartitionRun<S, P>> handoff, DevicePool devices,
                      FinalizeWorkers<S, P> finalizers, Lifecycle<S, P> lifecycle, BufferTracker tracker,
                      StepWatchdog<S, P> watchdog, TwiddleCache twiddles) {
        this.prover = prover;
        this.handoff = handoff;
        this.devices = devices;
        this.finalizers = finalizers;
        this.lifecycle = lifecycle;
        this.tracker = tracker;
        this.watchdog = watchdog;
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
        Attempt<S, P> attempt = partition.attempt();
        try {
            if (partition.cancelRequested()) {
                lifecycle.finish(partition, Stage.CANCELLED, null);
                return;
            }
            if (!startOnDevice(partition, attempt)) {
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
            if (attempt.isAbandoned()) {
                attempt.close(); // the partition moved on without this attempt: its failure is nobody's
                return;
            }
            lifecycle.fail(partition, t);
        } finally {
            partition.unbindOwner();
        }
    }

    /**
     * Runs prove start; false when a device fault or a device without room for the partition sent it back to the
     * hand-off, or the watchdog moved it on from a call that overran (its attempt, closed here, was that call's).
     */
    private boolean startOnDevice(PartitionRun<S, P> partition, Attempt<S, P> attempt) throws Exception {
        try (DevicePool.Lease lease = devices.acquire(partition)) {
            ProvingDevice device = lease.device();
            partition.device(device);
            partition.moveTo(Stage.PROVING);
            tracker.event(partition + " proving on " + device.id());
            try {
                lease.prepare();
                long lateAbc = prover.lateAbcBytes(device, partition.job().circuit());
                if (lateAbc > 0) {
                    partition.allowLateAbc(lateAbc);
                }
                // Placement may have waited: a partition cancelled meanwhile must not start a prove on the device
                // (the cancellation's interrupt does not stop a device call).
                if (partition.cancelRequested()) {
                    throw new InterruptedException(partition + " was cancelled before prove start");
                }
                P pending;
                try (StepWatchdog.Watch watch = watchdog.watch(partition, attempt, device, Stage.PROVING)) {
                    pending = ScopedValue.where(TwiddleCache.CURRENT, twiddles)
                            .call(() -> prover.proveStart(device, attempt.synthesized(), attempt.buffers()));
                } finally {
                    attempt.endStep();
                }
                if (attempt.isAbandoned()) {
                    attempt.close();
                    return false;
                }
                lease.succeeded();
                partition.pending(pending, device);
                return true;
            } catch (DeviceFaultException fault) {
                if (attempt.isAbandoned()) {
                    attempt.close();
                    return false;
                }
                lease.faulted(fault);
                partition.deviceFaulted(device, fault);
                partition.moveTo(Stage.AWAITING_DEVICE);
                handoff.requeue(partition);
                tracker.event(partition + " device fault (" + fault.kind() + ") on " + device.id());
                return false;
            } catch (DeviceCapacityException full) {
                if (attempt.isAbandoned()) {
                    attempt.close();
                    return false;
                }
                // Not the device's fault: its breaker is untouched (the lease closes as abandoned).
                partition.deviceFull(device, full, devices.completions());
                partition.moveTo(Stage.AWAITING_DEVICE);
                handoff.requeue(partition);
                tracker.event(partition + " no room on " + device.id() + ": " + full.getMessage());
                return false;
            }
        }
    }
}
