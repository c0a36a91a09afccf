package io.proofline.engine;

import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.pipeline.DefaultProvingEngine;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * The proving pipeline (see the package documentation for its picture). Thread-safe.
 */
public interface ProvingEngine extends AutoCloseable {

    /** Starts building an engine around {@code prover}. */
    static <S, P> Builder<S, P> builder(EngineConfig config, PartitionProver<S, P> prover) {
        return new Builder<>(config, prover);
    }

    /**
     * Admits a job: all its partitions are queued, or none.
     *
     * @throws PartitionTooLargeException when one partition needs more than the whole budget
     * @throws QueueFullException         when the queue has no room for its partitions now
     * @throws IntakeClosedException      while draining or after shutdown
     */
    JobId submit(JobRequest request);

    /** Completes when the job reaches DONE, FAILED or CANCELLED; never completes exceptionally. */
    CompletableFuture<JobResult> result(JobId id);

    /** Waits for the job's result. */
    JobResult await(JobId id, Duration timeout) throws InterruptedException, TimeoutException;

    JobStatus status(JobId id);

    /**
     * The heap bytes the engine keeps of finished jobs now, at most {@link EngineConfig#finishedJobsBytes()}
     * (status, bounded failure, proofs: an upper bound of each).
     */
    default long retainedFinishedBytes() {
        return 0;
    }

    /**
     * Cancels the job in whatever stage its partitions are; their memory is released as each stops.
     *
     * @return false if the job had already finished
     */
    boolean cancel(JobId id);

    /** Stops intake (submit throws {@link IntakeClosedException}); work already admitted goes on. */
    void drain();

    /** Re-opens intake after {@link #drain()}. */
    void resume();

    /** Whether submit would accept a job now (false while draining or shut down). */
    boolean isAcceptingWork();

    /** Whether the dispatcher takes work (it is restarted if it dies) and turns while work waits. */
    DispatcherHealth dispatcherHealth();

    /**
     * How many prove starts and finishes ran past {@link EngineConfig#stepTimeout()} so far (each failed over to
     * another device where one could take the partition, else went on).
     */
    long stepOverruns();

    /** Each tenant's unfinished work on this engine, tenants with none left out. */
    List<TenantLoad> tenantLoads();

    /** The buffer table, memory figures, devices and queues now. */
    PipelineSnapshot snapshot();

    EngineConfig config();

    /**
     * Stops intake and dispatch, gives running partitions {@code grace} to finish, cancels the rest and
     * stops the threads. Jobs with partitions still queued are cancelled and reported, so a caller that keeps
     * jobs durably can run them again. Later calls return the first call's report.
     */
    ShutdownReport shutdown(Duration grace) throws InterruptedException;

    /** {@link #shutdown} with no grace. */
    @Override
    void close();

    /** Assembles an engine; devices are required, the rest defaults. */
    final class Builder<S, P> {
        private final EngineConfig config;
        private final PartitionProver<S, P> prover;
        private List<? extends ProvingDevice> devices = List.of();
        private MemoryBudget budget;
        private BufferTracker tracker;
        private KeyResidency keys = KeyResidency.NONE;

        private Builder(EngineConfig config, PartitionProver<S, P> prover) {
            this.config = Objects.requireNonNull(config, "config");
            this.prover = Objects.requireNonNull(prover, "prover");
        }

        /** The devices that run prove start; the CPU backend is one device when there is no GPU. */
        public Builder<S, P> devices(List<? extends ProvingDevice> value) {
            this.devices = List.copyOf(value);
            return this;
        }

        /** A budget shared with a key cache; by default a new one of {@link EngineConfig#budgetBytes()}. */
        public Builder<S, P> budget(MemoryBudget value) {
            this.budget = Objects.requireNonNull(value, "budget");
            return this;
        }

        /** The tracker to count into; by default a new one. */
        public Builder<S, P> tracker(BufferTracker value) {
            this.tracker = Objects.requireNonNull(value, "tracker");
            return this;
        }

        /** The key cache whose keys the dispatcher admits together with partitions (shares the budget). */
        public Builder<S, P> keys(KeyResidency value) {
            this.keys = Objects.requireNonNull(value, "keys");
            return this;
        }

        /** Starts the engine's threads. */
        public ProvingEngine start() {
            return new DefaultProvingEngine<>(config, prover, devices,
                    budget != null ? budget : new MemoryBudget(config.budgetBytes()),
                    tracker != null ? tracker : new BufferTracker(), keys);
        }
    }
}
