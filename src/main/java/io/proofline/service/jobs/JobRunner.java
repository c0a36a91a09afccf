package io.proofline.service.jobs;

import io.proofline.service.DataDirectory;
import io.proofline.service.InstanceName;
import io.proofline.service.Tenant;
import io.proofline.service.tenants.TenantPolicies;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitStore;
import io.proofline.service.config.RetryProperties;
import io.proofline.service.config.StoreProperties;
import io.proofline.engine.IntakeClosedException;
import io.proofline.engine.JobFailure;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.NoDeviceAvailableException;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.PartitionTooLargeException;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.QueueFullException;
import io.proofline.engine.RetryableException;
import io.proofline.engine.Stage;
import io.proofline.engine.TenantShare;
import io.proofline.engine.UnknownJobException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
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
 * over writes nothing.
 *
 * <p>The delivery promise (docs/API.md): a job ends FAILED only for its own fault (its input, its circuit) or its
 * client's deadline. A run that ends with a {@link RetryableException}, or with an error of this service, goes back
 * to the queue with a backoff ({@code proofline.retry.*}), however often. A computed outcome is stored across a
 * database outage ({@link UntilReachable}). An instance's death is blamed on its culprit: the jobs that died
 * beside others become suspects and run alone ({@link Isolation}); a run that dies alone is charged a crash, and a job
 * charged {@code proofline.store.max-crashes} is FAILED as a poison job instead of run again.
 */
@Component
public class JobRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);
    /**
     * The longest a run waits between looks at its job while nothing changes (its partitions wait in the engine's
     * queue, say): a run holds no thread of its own (virtual job threads), but each look reads the database, and an
     * instance may follow a thousand queued jobs.
     */
    private static final Duration WATCH_INTERVAL_MAX = Duration.ofSeconds(4);
    /** How soon a job turned away to keep a suspect alone (or a suspect that found this instance busy) is tried again. */
    static final Duration ISOLATION_RETRY = Duration.ofSeconds(1);

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
    private final int maxCrashes;
    private final Backoff retryBackoff;
    private final TenantPolicies policies;
    private final Isolation isolation = new Isolation();
    private final Map<String, JobId> running = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    public JobRunner(JobStore store, CircuitStore circuits, ProvingEngine engine, DataDirectory data,
              TransactionTemplate tx, ApplicationEventPublisher events, InstanceName instanceName,
              StoreProperties storeProperties, RetryProperties retry, TenantPolicies policies) {
        this.store = store;
        this.policies = policies;
        this.maxCrashes = storeProperties.maxCrashes();
        this.retryBackoff = new Backoff(retry.backoff(), retry.maxBackoff());
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
        JobStore.RunState state = store.runState(jobId).orElse(null);
        if (state == null || state.status().isTerminal()) {
            return new Outcome.Finished();
        }
        if (stopping || !engine.isAcceptingWork()) {
            return new Outcome.Retry(Instant.now().plusSeconds(1));
        }
        if (state.crashesOnceBlamed() >= maxCrashes) {
            quarantine(jobId, state);
            return new Outcome.Finished();
        }
        Optional<Isolation.Ticket> ticket = isolation.enter(jobId, state.mustRunAlone());
        if (ticket.isEmpty()) {
            return new Outcome.Retry(Instant.now().plus(ISOLATION_RETRY));
        }
        try (Isolation.Ticket alone = ticket.get()) {
            logBlame(jobId, state);
            return claimAndRun(jobId, state.mustRunAlone());
        } finally {
            running.remove(jobId);
        }
    }

    /** What claiming the job will blame on it, if a dead run at work still holds it ({@link JobStore#markRunning}). */
    private void logBlame(String jobId, JobStore.RunState state) {
        if (!state.diedAtWork()) {
            return;
        }
        if (state.isolated()) {
            LOG.warn("job {}: its instance died while it ran alone; a crash is charged to it ({} of {} allowed by "
                    + "proofline.store.max-crashes)", jobId, state.crashesOnceBlamed(), maxCrashes);
        } else {
            LOG.info("job {}: its instance died while it ran beside other jobs; a suspect now, it runs alone until it "
                    + "finishes", jobId);
        }
    }

    private void quarantine(String jobId, JobStore.RunState state) {
        int crashes = state.crashesOnceBlamed();
        String error = "quarantined as a poison job: " + crashes + " runs of it ended with their instance (crashed "
                + "or killed) while it ran alone; proofline.store.max-crashes is " + maxCrashes;
        if (UntilReachable.run("quarantine job " + jobId,
                () -> store.quarantine(jobId, state.token(), crashes, error)) == Boolean.TRUE) {
            data.deleteJobInputs(jobId);
            LOG.warn("job {} FAILED: {}", jobId, error);
        }
    }

    private Outcome claimAndRun(String jobId, boolean alone) {
        JobRecord job = store.find(jobId).orElse(null);
        if (job == null || job.status().isTerminal()) {
            return new Outcome.Finished();
        }
        Lease lease = store.markRunning(jobId, instanceName, alone).orElse(null);
        if (lease == null) {
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
            // this service's error, not the job's: it runs again later
            LOG.error("job {}: its run failed unexpectedly; it goes back to the queue", jobId, e);
            return retryLater(lease, "internal error: " + e, List.of());
        }
    }

    static String deadlinePassed(Instant deadlineAt) {
        return "the job's deadline (" + deadlineAt + ") passed before it finished";
    }

    private Outcome submitAndFollow(JobRecord job, CircuitInfo circuit, Lease lease) {
        Duration left = job.deadlineAt() == null ? null : Duration.between(Instant.now(), job.deadlineAt());
        if (left != null && !left.isPositive()) {
            finish(lease, JobState.FAILED, deadlinePassed(job.deadlineAt()), null, List.of(), List.of());
            return new Outcome.Finished();
        }
        JobRequest request;
        try {
            request = StoredInputs.request(data, job, store.partitions(job.id()), circuit, left,
                    () -> markDispatched(lease), share(job.id()));
        } catch (NoSuchFileException e) {
            finish(lease, JobState.FAILED, "an input of the job is gone: " + e.getMessage(), null, List.of(),
                    List.of());
            return new Outcome.Finished();
        } catch (IOException e) {
            return retryLater(lease, "cannot read the job's inputs now: " + e, List.of());
        }
        JobId engineId;
        try {
            engineId = engine.submit(request);
        } catch (QueueFullException e) {
            handBack(lease);
            return new Outcome.Retry(Instant.now().plus(e.retryAfter()));
        } catch (IntakeClosedException e) {
            handBack(lease);
            return new Outcome.Retry(Instant.now().plusSeconds(1));
        } catch (PartitionTooLargeException e) {
            finish(lease, JobState.FAILED, e.getMessage(), null, List.of(), List.of());
            return new Outcome.Finished();
        } catch (RetryableException e) {
            return retryLater(lease, e.getMessage(), List.of());
        }
        running.put(job.id(), engineId);
        JobResult result = follow(lease, engineId);
        if (result == null) {
            LOG.warn("job {}: another instance took it over while this one could not reach the database; this "
                    + "run was cancelled and writes nothing", job.id());
            return new Outcome.Finished();
        }
        List<PartitionStatus> partitions = finalPartitions(engineId);
        if (result.state() == JobState.CANCELLED && stopping && !cancelRequested(job.id())) {
            LOG.info("job {} goes back to the queue: this instance is shutting down", job.id());
            handBack(lease);
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

    /** The job's tenant and its weight, for the engine's fair queue. */
    private TenantShare share(String jobId) {
        String principal = store.principal(jobId).orElse(Tenant.EVERY_KEY);
        return new TenantShare(principal, policies.of(principal).weight());
    }

    /**
     * The partitions' last stages, as the engine still remembers them: it keeps finished jobs within a byte cap, so a
     * flood of others finishing meanwhile may have made it forget this one (then the rows keep their last written
     * stages; the job's outcome is stored all the same).
     */
    private List<PartitionStatus> finalPartitions(JobId engineId) {
        try {
            return engine.status(engineId).partitions();
        } catch (UnknownJobException forgotten) {
            return List.of();
        }
    }

    /**
     * The run begins its work: recorded, and committed, before its first partition is synthesized, so that a death of
     * this instance before it is known to be none of this job's doing. Without the database the run goes on
     * unrecorded (its death would then not be blamed on it).
     */
    private void markDispatched(Lease lease) {
        try {
            store.markDispatched(lease);
        } catch (DataAccessException | TransactionException e) {
            LOG.warn("job {}: cannot record that its run began its work ({}); it goes on", lease.jobId(),
                    e.getMessage());
        }
    }

    private boolean cancelRequested(String jobId) {
        return UntilReachable.run("read job " + jobId, () -> store.find(jobId).map(JobRecord::cancelRequested)
                .orElse(true)) != Boolean.FALSE;
    }

    /** Back to the queue by this instance's own hand (shutdown, a full engine): the run counts for nothing. */
    private void handBack(Lease lease) {
        UntilReachable.run("hand job " + lease.jobId() + " back", () -> store.requeue(lease));
    }

    /**
     * A run ended by a failure that may pass (or by an error of this service): back to the queue after a backoff that
     * doubles with each such end, up to {@code proofline.retry.max-backoff}. It is never failed for it: its client's
     * deadline, if it set one, is what ends a job that cannot run.
     */
    private Outcome retryLater(Lease lease, String reason, List<PartitionStatus> partitions) {
        Duration backoff = retryBackoff.after(lease.retries());
        if (UntilReachable.run("hand job " + lease.jobId() + " back",
                () -> store.requeueAfterTransientFailure(lease, reason)) == Boolean.TRUE) {
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
    public static Optional<RetryableException> retryable(Throwable cause) {
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
        long interval = WATCH_INTERVAL.toMillis();
        while (true) {
            try {
                return engine.result(engineId).get(interval, TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillRunning) {
                List<PartitionStatus> partitions = engine.status(engineId).partitions();
                List<Stage> stages = partitions.stream().map(PartitionStatus::stage).toList();
                // looks back off while nothing moves, and come often again once something does
                interval = stages.equals(lastStages) ? Math.min(2 * interval, WATCH_INTERVAL_MAX.toMillis())
                        : WATCH_INTERVAL.toMillis();
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

    public static Path inputFile(DataDirectory data, String jobId, int index, PartitionInput.Format format) {
        return data.job(jobId).resolve(index + (format == PartitionInput.Format.WTNS ? ".wtns" : ".json"));
    }

    /**
     * Stores the run's outcome once; a database that cannot be reached is waited for ({@link UntilReachable}): a
     * computed proof is not thrown away because of an outage.
     */
    private void finish(Lease lease, JobState state, String error, Timings timings, List<StoredProof> proofs,
                        List<PartitionStatus> partitions) {
        Boolean stored = UntilReachable.run("store the outcome of job " + lease.jobId(), () -> tx.execute(status -> {
            if (!partitions.isEmpty()) {
                store.updatePartitions(lease, partitions);
            }
            return store.finish(lease, state, error, timings, proofs);
        }));
        if (stored == null) {
            LOG.warn("job {}: its outcome ({}) could not be stored before this instance stopped; it runs again",
                    lease.jobId(), state);
        } else if (stored) {
            // logged as soon as it is stored: an instance killed while it deletes the inputs has said so
            LOG.info("job {} {}{}", lease.jobId(), state, error == null ? "" : ": " + error);
            data.deleteJobInputs(lease.jobId());
        } else {
            LOG.info("job {} had already finished or was taken over elsewhere; result of this run ({}) dropped",
                    lease.jobId(), state);
        }
    }
}
