package io.proofline.service;

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
import io.proofline.engine.Stage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
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
 * stores the outcome once.
 */
@Component
class JobRunner {

    private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);
    private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);

    /** What the scheduler should do with the job's task afterwards. */
    sealed interface Outcome {
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
    private final Map<String, JobId> running = new ConcurrentHashMap<>();
    private volatile boolean stopping;

    JobRunner(JobStore store, CircuitStore circuits, ProvingEngine engine, DataDirectory data,
              TransactionTemplate tx, ApplicationEventPublisher events, InstanceName instanceName) {
        this.store = store;
        this.circuits = circuits;
        this.engine = engine;
        this.data = data;
        this.tx = tx;
        this.events = events;
        this.instanceName = instanceName.value();
    }

    /** From now on, jobs the engine ends because it shuts down go back to the queue instead of ending. */
    void stopping() {
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

    Outcome run(String jobId) {
        JobRecord job = store.find(jobId).orElse(null);
        if (job == null || job.status().isTerminal()) {
            return new Outcome.Finished();
        }
        if (job.cancelRequested()) {
            finish(job, JobState.CANCELLED, "cancelled", null, List.of(), List.of());
            return new Outcome.Finished();
        }
        if (stopping || !engine.isAcceptingWork()) {
            return new Outcome.Retry(Instant.now().plusSeconds(1));
        }
        CircuitInfo circuit = circuits.find(job.circuitId()).orElse(null);
        if (circuit == null) {
            finish(job, JobState.FAILED, "circuit " + job.circuitId() + " was deleted", null, List.of(), List.of());
            return new Outcome.Finished();
        }
        store.markRunning(jobId, instanceName);
        try {
            return submitAndFollow(job, circuit);
        } catch (RuntimeException e) {
            LOG.error("job {} failed unexpectedly", jobId, e);
            finish(job, JobState.FAILED, "internal error: " + e, null, List.of(), List.of());
            return new Outcome.Finished();
        } finally {
            running.remove(jobId);
        }
    }

    private Outcome submitAndFollow(JobRecord job, CircuitInfo circuit) {
        JobRequest request;
        try {
            request = request(job, circuit);
        } catch (IOException e) {
            finish(job, JobState.FAILED, "cannot read the job's inputs: " + e.getMessage(), null, List.of(), List.of());
            return new Outcome.Finished();
        }
        JobId engineId;
        try {
            engineId = engine.submit(request);
        } catch (QueueFullException e) {
            store.requeue(job.id());
            return new Outcome.Retry(Instant.now().plus(e.retryAfter()));
        } catch (IntakeClosedException e) {
            store.requeue(job.id());
            return new Outcome.Retry(Instant.now().plusSeconds(1));
        } catch (PartitionTooLargeException e) {
            finish(job, JobState.FAILED, e.getMessage(), null, List.of(), List.of());
            return new Outcome.Finished();
        }
        running.put(job.id(), engineId);
        JobResult result = follow(job.id(), engineId);
        List<PartitionStatus> partitions = engine.status(engineId).partitions();
        if (result.state() == JobState.CANCELLED && stopping
                && !store.find(job.id()).map(JobRecord::cancelRequested).orElse(true)) {
            LOG.info("job {} goes back to the queue: this instance is shutting down", job.id());
            store.requeue(job.id());
            return new Outcome.Retry(Instant.now());
        }
        List<StoredProof> proofs = new ArrayList<>();
        for (int i = 0; i < result.proofs().size(); i++) {
            ProofOutput p = result.proofs().get(i);
            proofs.add(new StoredProof(i, p.proofJson(), p.publicSignalsJson()));
        }
        String error = result.failure().map(JobFailure::message).orElse(null);
        finish(job, result.state(), error, Timings.of(result.timings()), proofs, partitions);
        events.publishEvent(new JobFinishedEvent(job.id(), job.circuitId(), result.state(), partitions,
                result.failure().map(f -> f.cause().getClass().getSimpleName()).orElse("")));
        return new Outcome.Finished();
    }

    /** Waits for the engine's result, writing stage changes and watching for cancellation meanwhile. */
    private JobResult follow(String jobId, JobId engineId) {
        List<Stage> lastStages = List.of();
        while (true) {
            try {
                return engine.result(engineId).get(WATCH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillRunning) {
                List<PartitionStatus> partitions = engine.status(engineId).partitions();
                List<Stage> stages = partitions.stream().map(PartitionStatus::stage).toList();
                if (!stages.equals(lastStages)) {
                    store.updatePartitions(jobId, partitions);
                    lastStages = stages;
                }
                if (store.find(jobId).map(JobRecord::cancelRequested).orElse(true)) {
                    engine.cancel(engineId);
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
            byte[] bytes = Files.readAllBytes(inputFile(data, job.id(), p.index(), p.format()));
            builder.partition(new PartitionInput(p.format(), bytes));
        }
        return builder.build();
    }

    static Path inputFile(DataDirectory data, String jobId, int index, PartitionInput.Format format) {
        return data.job(jobId).resolve(index + (format == PartitionInput.Format.WTNS ? ".wtns" : ".json"));
    }

    private void finish(JobRecord job, JobState state, String error, Timings timings, List<StoredProof> proofs,
                        List<PartitionStatus> partitions) {
        boolean stored = Boolean.TRUE.equals(tx.execute(status -> {
            if (!partitions.isEmpty()) {
                store.updatePartitions(job.id(), partitions);
            }
            return store.finish(job.id(), state, error, timings, proofs);
        }));
        if (stored) {
            data.deleteJobInputs(job.id());
            LOG.info("job {} {}{}", job.id(), state, error == null ? "" : ": " + error);
        } else {
            LOG.info("job {} had already finished elsewhere; result of this run ({}) dropped", job.id(), state);
        }
    }
}
