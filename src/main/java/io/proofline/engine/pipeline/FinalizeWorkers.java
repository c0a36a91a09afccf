package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferTracker;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.InvalidProofException;
import io.proofline.engine.PartitionProver;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.Stage;

import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Prove finish (B2 MSM and assembly) on the finalizer pool, with the device that ran prove start (the engine
 * carries it with the pending proof and checks it); then every
 * buffer is freed and the rest of the reservation returned; then the optional verification. Prove finish runs under
 * the {@link StepWatchdog}: a call that overruns the step timeout while another device could take the partition is
 * left to itself with its attempt (the pending proof belongs to that device), and the partition starts over.
 */
final class FinalizeWorkers<S, P> {

    private final PartitionProver<S, P> prover;
    private final DevicePool devices;
    private final ThreadPoolExecutor pool;
    private final Lifecycle<S, P> lifecycle;
    private final BufferTracker tracker;
    private final StepWatchdog<S, P> watchdog;

    FinalizeWorkers(PartitionProver<S, P> prover, DevicePool devices, ThreadPoolExecutor pool,
                    Lifecycle<S, P> lifecycle, BufferTracker tracker, StepWatchdog<S, P> watchdog) {
        this.prover = prover;
        this.devices = devices;
        this.pool = pool;
        this.lifecycle = lifecycle;
        this.tracker = tracker;
        this.watchdog = watchdog;
    }

    /** A finalizer is stuck in a call the watchdog gave up on: another thread takes its place meanwhile. */
    private void replaceStuckThread() {
        synchronized (pool) {
            pool.setMaximumPoolSize(pool.getMaximumPoolSize() + 1);
            pool.setCorePoolSize(pool.getCorePoolSize() + 1);
        }
    }

    /** The stuck call returned: its attempt is freed and the pool shrinks back by the thread that replaced it. */
    private void closeAbandoned(Attempt<S, P> attempt) {
        attempt.close();
        synchronized (pool) {
            pool.setCorePoolSize(pool.getCorePoolSize() - 1);
            pool.setMaximumPoolSize(pool.getMaximumPoolSize() - 1);
        }
    }

    void start(PartitionRun<S, P> partition) {
        try {
            pool.execute(() -> run(partition));
        } catch (RejectedExecutionException e) {
            lifecycle.finish(partition, Stage.CANCELLED, e);
        }
    }

    private void run(PartitionRun<S, P> partition) {
        partition.bindOwner();
        Attempt<S, P> attempt = partition.attempt();
        try {
            if (partition.cancelRequested()) {
                lifecycle.finish(partition, Stage.CANCELLED, null);
                return;
            }
            ProvingDevice device = partition.pendingDevice();
            ProofOutput proof;
            try (StepWatchdog.Watch watch = watchdog.watch(partition, attempt, device, Stage.FINALIZING,
                    this::replaceStuckThread)) {
                proof = prover.proveFinish(device, attempt.pending());
            } catch (DeviceFaultException fault) {
                // The pending proof belongs to this device, so it cannot move: the fault counts against the
                // device's breaker and fails the partition.
                if (!attempt.isAbandoned()) {
                    devices.recordFault(device, fault);
                }
                throw fault;
            } finally {
                attempt.endStep();
            }
            if (attempt.isAbandoned()) {
                closeAbandoned(attempt);
                return;
            }
            partition.releaseAll();
            if (partition.job().verify()) {
                partition.moveTo(Stage.VERIFYING);
                tracker.event(partition + " verifying");
                if (partition.cancelRequested()) {
                    lifecycle.finish(partition, Stage.CANCELLED, null);
                    return;
                }
                if (!prover.verify(partition.job().circuit(), proof)) {
                    throw new InvalidProofException(partition.job().id(), partition.index());
                }
            }
            partition.output(proof);
            lifecycle.finish(partition, Stage.DONE, null);
        } catch (Throwable t) {
            if (attempt.isAbandoned()) {
                closeAbandoned(attempt); // the partition started over without this attempt: its failure is nobody's
                return;
            }
            lifecycle.fail(partition, t);
        } finally {
            partition.unbindOwner();
        }
    }
}
