package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.PartitionProver;
import io.proofline.engine.Stage;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;

/**
 * Synthesis on the bounded pool: WITNESS and ABC come to life, the INPUT is consumed, and the partition goes
 * into the hand-off with its reservation. The synthesis slot is given back when the task ends, which under
 * the product's admission is after the (bounded) hand-off took the partition.
 */
final class SynthesisWorkers<S, P> {

    private final PartitionProver<S, P> prover;
    private final ExecutorService pool;
    private final Semaphore slots;
    private final Handoff<PartitionRun<S, P>> handoff;
    private final Lifecycle<S, P> lifecycle;
    private final BufferTracker tracker;

    SynthesisWorkers(PartitionProver<S, P> prover, ExecutorService pool, Semaphore slots,
                   Handoff<PartitionRun<S, P>> handoff, Lifecycle<S, P> lifecycle, BufferTracker tracker) {
        this.prover = prover;
        this.pool = pool;
        this.slots = slots;
        this.handoff = handoff;
        this.lifecycle = lifecycle;
        this.tracker = tracker;
    }

    /** Hands {@code partition} (and a synthesis slot) to the pool; false, with the partition ended, if refused. */
    boolean start(PartitionRun<S, P> partition) {
        try {
            pool.execute(() -> run(partition));
            return true;
        } catch (RejectedExecutionException e) {
            lifecycle.finish(partition, Stage.CANCELLED, e);
            return false;
        }
    }

    private void run(PartitionRun<S, P> partition) {
        partition.bindOwner();
        try {
            if (partition.cancelRequested()) {
                lifecycle.finish(partition, Stage.CANCELLED, null);
                return;
            }
            partition.moveTo(Stage.SYNTHESIZING);
            tracker.event(partition + " synthesizing");
            S synthesized = prover.synthesize(partition.work(), partition.buffers());
            partition.synthesized(synthesized);
            partition.inputConsumed();
            partition.moveTo(Stage.AWAITING_DEVICE);
            tracker.event(partition + " synthesized");
            handoff.put(partition);
        } catch (Throwable t) {
            lifecycle.fail(partition, t);
        } finally {
            partition.unbindOwner();
            slots.release();
        }
    }
}
