package io.proofline.service.jobs;

import io.proofline.service.DataDirectory;
import io.proofline.service.InstanceName;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitStore;
import io.proofline.service.config.RetryProperties;
import io.proofline.service.config.StoreProperties;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.IntakeClosedException;
import io.proofline.engine.JobFailure;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.PartitionTooLargeException;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.QueueFullException;
import io.proofline.engine.NoDeviceAvailableException;
import io.proofline.engine.RetryableException;
import io.proofline.engine.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one durable job on this instance's engine, on a thread of the job scheduler (which holds the job's lease and
 * renews it while this runs): submits the partitions (the engine admits the circuit's key together with them),
 * follows them (writing their stages to the database and watching for a cancellation asked on any instance), and
 * stores the outcome once. Every write presents the run's {@link Lease}, so a run whose job another instance took
 * over writes nothing. A run that ends with a {@link RetryableException} goes back to the queue with a backoff
 * ({@code proofline.retry.*}); a job whose earlier runs died with their instance more than
 * {@code proofline.store.max-attempts} times is FAILED instead of run again (a poison job).
 */
@Component
public class JobRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);

    /** What the scheduler should do with the job's task afterwards. */
    public sealed interface Outcome {
        /** The job is finished (or gone): remove the task. */
        record Finished() implements Outcome {
        }

        /** Not taken now: run the task again at {@code when} (here or on another instance). */
        record Retry(Instant when) implements Outcome {
        }
    }

    private final JobStore store;
    private final CircuitStore circuits;
    private final ProvingEngine engine;
    private final DataDirectory data;
    private final TransactionTemplate tx;
    private final ApplicationEventPublisher events;
    private final String instanceName;
    private final int maxAttempts;
    private final int retryAttempts;
    private final Duration retryBackoff;
    private final Map<String, JobId> running = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    public JobRunner(JobStore store, CircuitStore circuits, ProvingEngine engine, DataDirectory data,
              TransactionTemplate tx, ApplicationEventPublisher events, InstanceName instanceName,
              StoreProperties storeProperties, RetryProperties retry) {
        this.store = store;
        this.maxAttempts = storeProperties.maxAttempts();
        this.retryAttempts = retry.attempts();
        this.retryBackoff = retry.backoff();
        this.circuits = circuits;
        this.engine = engine;
        this.data = data;
        this.tx = tx;
        this.events = events;
        this.instanceName = instanceName.value();
    }

    /** From now on, jobs the engine ends because it shuts down go back to the queue instead of ending. */
    public void stopping() {
        stopping = true;
    }

    int runningJobs() {
        return running.size();
    }

    /** Cancels the job on this instance's engine if it runs here. */
    boolean cancelLocal(String jobId) {
        JobId engineId = running.get(jobId);
        return engineId != null && engine.cancel(engineId);
    }

    /** The engine's live view of a job running here. */
    Optional<io.proofline.engine.JobStatus> liveStatus(String jobId) {
        JobId engineId = running.get(jobId);
        if (engineId == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(engine.status(engineId));
        } catch (RuntimeException gone) {
            return Optional.empty();
        }
    }

    public Outcome run(String jobId) {
        JobRecord job = store.find(jobId).orElse(null);
        if (job == null || job.status().isTerminal()) {
            return new Outcome.Finished();
        }
        if (stopping || !engine.isAcceptingWork()) {
            return new Outcome.Retry(Instant.now().plusSeconds(1));
        }
        Lease lease = store.markRunning(jobId, instanceName).orElse(null);
        if (lease == null) {
            return new Outcome.Finished();
        }
        if (lease.attempts() > maxAttempts) {
            finish(lease, JobState.FAILED, "quarantined as a poison job: " + (lease.attempts() - 1)
                    + " runs of it ended with their instance (crashed or killed) before it finished; "
                    + "proofline.store.max-attempts is " + maxAttempts, null, List.of(), List.of());
            return new Outcome.Finished();
        }
        if (job.cancelRequested()) {
            finish(lease, JobState.CANCELLED, "cancelled", null, List.of(), List.of());
            return new Outcome.Finished();
        }
        CircuitInfo circuit = circuits.find(job.circuitId()).orElse(null);
        if (circuit == null) {
            finish(lease, JobState.FAILED, "circuit " + job.circuitId() + " was deleted", null, List.of(), List.of());
            return new Outcome.Finished();
        }
        try {
            return submitAndFollow(job, circuit, lease);
        } catch (RuntimeException e) {
            LOG.error("job {} failed unexpectedly", jobId, e);
            finish(lease, JobState.FAILED, "internal error: " + e, null, List.of(), List.of());
            return new Outcome.Finished();
        } finally {
            running.remove(jobId);
        }
    }

    private Outcome submitAndFollow(JobRecord job, CircuitInfo circuit, Lease lease) {
        JobRequest request;
        try {
            request = request(job, circuit);
        } catch (IOException e) {
            finish(lease, JobState.FAILED, "cannot read the job's inputs: " + e.getMessage(), null, List.of(),
                    List.of());
            return new Outcome.Finished();
        }
        JobId engineId;
        try {
            engineId = engine.submit(request);
        } catch (QueueFullException e) {
            store.requeue(lease);
            return new Outcome.Retry(Instant.now().plus(e.retryAfter()));
        } catch (IntakeClosedException e) {
            store.requeue(lease);
            return new Outcome.Retry(Instant.now().plusSeconds(1));
        } catch (PartitionTooLargeException e) {
            finish(lease, JobState.FAILED, e.getMessage(), null, List.of(), List.of());
            return new Outcome.Finished();
        }
        running.put(job.id(), engineId);
        JobResult result = follow(lease, engineId);
        if (result == null) {
            LOG.warn("job {}: another instance took it over while this one could not reach the database; this "
                    + "run was cancelled and writes nothing", job.id());
            return new Outcome.Finished();
        }
        List<PartitionStatus> partitions = engine.status(engineId).partitions();
        if (result.state() == JobState.CANCELLED && stopping
                && !store.find(job.id()).map(JobRecord::cancelRequested).orElse(true)) {
            LOG.info("job {} goes back to the queue: this instance is shutting down", job.id());
            store.requeue(lease);
            return new Outcome.Retry(Instant.now());
        }
        Optional<RetryableException> transientCause = result.failure().flatMap(f -> retryable(f.cause()));
        if (transientCause.isPresent()) {
            JobFailure failure = result.failure().orElseThrow();
            boolean same = failure.cause() == transientCause.get() || failure.cause() == transientCause.get().getCause();
            String reason = same ? failure.message()
                    : failure.message() + ": " + transientCause.get().getMessage();
            return retryLater(lease, reason, partitions);
        }
        List<StoredProof> proofs = new ArrayList<>();
        for (int i = 0; i < result.proofs().size(); i++) {
            ProofOutput p = result.proofs().get(i);
            proofs.add(new StoredProof(i, p.proofJson(), p.publicSignalsJson()));
        }
        String error = result.failure().map(JobFailure::message).orElse(null);
        finish(lease, result.state(), error, Timings.of(result.timings()), proofs, partitions);
        events.publishEvent(new JobFinishedEvent(job.id(), job.circuitId(), result.state(), partitions,
                result.failure().map(f -> f.cause().getClass().getSimpleName()).orElse("")));
        return new Outcome.Finished();
    }

    /**
     * A run ended by a failure that may pass: back to the queue after a backoff that doubles with each retry, or
     * FAILED with the reason once {@code proofline.retry.attempts} runs ended so.
     */
    private Outcome retryLater(Lease lease, String reason, List<PartitionStatus> partitions) {
        int transientEnds = lease.retries() + 1;
        if (transientEnds >= retryAttempts) {
            finish(lease, JobState.FAILED, reason + " (transient failure " + transientEnds + " of "
                    + retryAttempts + " allowed by proofline.retry.attempts)", null, List.of(), partitions);
            return new Outcome.Finished();
        }
        Duration backoff = retryBackoff.multipliedBy(1L << Math.min(lease.retries(), 20));
        if (store.requeueAfterTransientFailure(lease, reason)) {
            LOG.info("job {} goes back to the queue for {} after a transient failure: {}", lease.jobId(), backoff,
                    reason);
        }
        return new Outcome.Retry(Instant.now().plus(backoff));
    }

    /**
     * The {@link RetryableException} in {@code cause}'s chain, if any. No device available is transient too: every
     * breaker open, or every device faulted on the partition (a single GPU's fault) — devices are tried again after
     * their retry time, so the job runs again later rather than failing for good.
     */
    static Optional<RetryableException> retryable(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetryableException r) {
                return Optional.of(r);
            }
            if (t instanceof NoDeviceAvailableException none) {
                return Optional.of(new RetryableException(none.getMessage(), none));
            }
        }
        return Optional.empty();
    }

    /**
     * Waits for the engine's result, writing stage changes and watching for cancellation meanwhile. While the
     * database cannot be reached the run goes on; once it can, a run whose job another instance took over meanwhile
     * (its lease is gone) is cancelled here and null returned: it must write nothing.
     */
    private JobResult follow(Lease lease, JobId engineId) {
        List<Stage> lastStages = List.of();
        boolean unreachable = false;
        while (true) {
            try {
                return engine.result(engineId).get(WATCH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillRunning) {
                List<PartitionStatus> partitions = engine.status(engineId).partitions();
                List<Stage> stages = partitions.stream().map(PartitionStatus::stage).toList();
                try {
                    if (!stages.equals(lastStages) ? !store.updatePartitions(lease, partitions)
                            : !store.holdsLease(lease)) {
                        engine.cancel(engineId);
                        engine.result(engineId).join();
                        return null;
                    }
                    lastStages = stages;
                    if (store.find(lease.jobId()).map(JobRecord::cancelRequested).orElse(true)) {
                        engine.cancel(engineId);
                    }
                    unreachable = false;
                } catch (DataAccessException e) {
                    if (!unreachable) {
                        LOG.warn("job {}: the database cannot be reached ({}); the run goes on", lease.jobId(),
                                e.getMessage());
                    }
                    unreachable = true;
                }
            } catch (InterruptedException e) {
                // the scheduler is being stopped hard: the engine's shutdown ends the job, keep waiting for it
                Thread.currentThread().interrupt();
                return engine.result(engineId).join();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a job's future never completes exceptionally", e);
            }
        }
    }

    private JobRequest request(JobRecord job, CircuitInfo circuit) throws IOException {
        CircuitRef ref = new CircuitRef(circuit.id(), circuit.variables(), circuit.domainSize(),
                circuit.publicSignals());
        JobRequest.Builder builder = JobRequest.builder(ref).priority(job.priority());
        if (job.verify() != null) {
            builder.verify(job.verify());
        }
        for (PartitionRecord p : store.partitions(job.id())) {
            // Read when the partition is synthesized, not now: a queued job holds none of its inputs in memory.
            Path file = inputFile(data, job.id(), p.index(), p.format());
            builder.partition(PartitionInput.stored(p.format(), file, Files.size(file)));
        }
        return builder.build();
    }

    public static Path inputFile(DataDirectory data, String jobId, int index, PartitionInput.Format format) {
        return data.job(jobId).resolve(index + (format == PartitionInput.Format.WTNS ? ".wtns" : ".json"));
    }

    private void finish(Lease lease, JobState state, String error, Timings timings, List<StoredProof> proofs,
                        List<PartitionStatus> partitions) {
        boolean stored = Boolean.TRUE.equals(tx.execute(status -> {
            if (!partitions.isEmpty()) {
                store.updatePartitions(lease, partitions);
            }
            return store.finish(lease, state, error, timings, proofs);
        }));
        if (stored) {
            data.deleteJobInputs(lease.jobId());
            LOG.info("job {} {}{}", lease.jobId(), state, error == null ? "" : ": " + error);
        } else {
            LOG.info("job {} had already finished or was taken over elsewhere; result of this run ({}) dropped",
                    lease.jobId(), state);
        }
    }
}
