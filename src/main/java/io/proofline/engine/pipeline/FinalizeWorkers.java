package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferTracker;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.InvalidProofException;
import io.proofline.engine.PartitionProver;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.Stage;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * Prove finish (B2 MSM and assembly) on the finalizer pool, with the device that ran prove start (the engine
 * carries it with the pending proof and checks it); then every
 * buffer is freed and the rest of the reservation returned; then the optional verification.
 */
final class FinalizeWorkers<S, P> {

    private final PartitionProver<S, P> prover;
    private final DevicePool devices;
    private final ExecutorService pool;
    private final Lifecycle<S, P> lifecycle;
    private final BufferTracker tracker;

    FinalizeWorkers(PartitionProver<S, P> prover, DevicePool devices, ExecutorService pool, Lifecycle<S, P> lifecycle,
                  BufferTracker tracker) {
        this.prover = prover;
        this.devices = devices;
        this.pool = pool;
        this.lifecycle = lifecycle;
        this.tracker = tracker;
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
        try {
            if (partition.cancelRequested()) {
                lifecycle.finish(partition, Stage.CANCELLED, null);
                return;
            }
            ProvingDevice device = partition.pendingDevice();
            ProofOutput proof;
            try {
                proof = prover.proveFinish(device, partition.pending());
            } catch (DeviceFaultException fault) {
                // The pending proof belongs to this device, so it cannot move: the fault counts against the
                // device's breaker and fails the partition.
                devices.recordFault(device, fault);
                throw fault;
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
            lifecycle.fail(partition, t);
        } finally {
            partition.unbindOwner();
        }
    }
}
