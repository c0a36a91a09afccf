package io.proofline.service;

import io.proofline.engine.IntakeClosedException;
import io.proofline.engine.JobFailure;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.JobStatus;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.PartitionTooLargeException;
import io.proofline.engine.Priority;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.QueueFullException;
import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mockito.ArgumentCaptor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * One durable job through the runner: the database (H2), the data directory and the key cache are real, the engine
 * is a test double scripted per case, so that every outcome the runner must store (or hand back to the queue) is
 * reached on purpose.
 */
class JobRunnerTest {

    static final String CIRCUIT = "a".repeat(64);
    static final byte[] WITNESS = {1, 2, 3, 4};

    @TempDir
    Path dir;
    JobsDatabase db;
    DataDirectory data;
    ProvingEngine engine;
    List<Object> events;
    JobRunner runner;

    @BeforeEach
    void setUp() throws IOException {
        db = JobsDatabase.h2();
        data = new DataDirectory(dir);
        Path circuit = Files.createDirectories(data.circuit(CIRCUIT));
        Files.copy(KeyCacheTest.MUL3.resolve("bn128/circuit.zkey"), circuit.resolve(CircuitService.ZKEY));
        db.circuits.insert(new CircuitInfo(CIRCUIT, "mul3", "bn128", 2, 6, 2, 4, Files.size(circuit.resolve(
                CircuitService.ZKEY)), false, false, Instant.now()));
        engine = mock(ProvingEngine.class);
        when(engine.isAcceptingWork()).thenReturn(true);
        events = new ArrayList<>();
        runner = runner();
    }

    @AfterEach
    void tearDown() throws Exception {
        db.close();
    }

    @Test
    void aJobRunsOnTheEngineAndItsProofsAreStoredOnce() throws IOException {
        JobRecord job = queuedWithInputs(2);
        JobId engineId = new JobId("engine-1");
        when(engine.submit(any())).thenReturn(engineId);
        List<PartitionStatus> partitions = List.of(new PartitionStatus(0, Stage.DONE, "cpu", StageTimings.ZERO),
                new PartitionStatus(1, Stage.DONE, "cpu", StageTimings.ZERO));
        when(engine.status(engineId)).thenReturn(status(engineId, JobState.DONE, partitions));
        when(engine.result(engineId)).thenReturn(CompletableFuture.completedFuture(new JobResult(engineId,
                JobState.DONE, List.of(new ProofOutput("{\"p\":0}", "[\"9\"]"), new ProofOutput("{\"p\":1}", "[\"9\"]")),
                Optional.empty(), StageTimings.ZERO.withTotal(Duration.ofMillis(1234)))));

        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Finished.class);

        ArgumentCaptor<JobRequest> request = ArgumentCaptor.forClass(JobRequest.class);
        verify(engine).submit(request.capture());
        assertThat(request.getValue().circuit().id()).isEqualTo(CIRCUIT);
        assertThat(request.getValue().priority()).isEqualTo(Priority.NORMAL);
        assertThat(request.getValue().partitions()).hasSize(2).allSatisfy(p -> {
            assertThat(p.format()).isEqualTo(PartitionInput.Format.WTNS);
            assertThat(p.bytes()).isEqualTo(WITNESS);
        });
        JobRecord done = db.jobs.find(job.id()).orElseThrow();
        assertThat(done.status()).isEqualTo(JobState.DONE);
        assertThat(done.attempts()).isEqualTo(1);
        assertThat(done.timings().totalMs()).isEqualTo(1234);
        assertThat(db.jobs.proofs(job.id())).extracting(StoredProof::proofJson)
                .containsExactly("{\"p\":0}", "{\"p\":1}");
        assertThat(db.jobs.partitions(job.id())).allSatisfy(p -> {
            assertThat(p.stage()).isEqualTo(Stage.DONE);
            assertThat(p.device()).isEqualTo("cpu");
        });
        assertThat(data.job(job.id())).as("inputs removed once the job finished").doesNotExist();
        assertThat(events).singleElement().isEqualTo(new JobFinishedEvent(job.id(), CIRCUIT, JobState.DONE,
                partitions, ""));
        assertThat(runner.runningJobs()).isZero();
    }

    @Test
    void aFailureIsStoredWithItsMessage() throws IOException {
        JobRecord job = queuedWithInputs(1);
        JobId engineId = new JobId("engine-1");
        when(engine.submit(any())).thenReturn(engineId);
        when(engine.status(engineId)).thenReturn(status(engineId, JobState.FAILED, List.of()));
        when(engine.result(engineId)).thenReturn(CompletableFuture.completedFuture(new JobResult(engineId,
                JobState.FAILED, List.of(), Optional.of(new JobFailure(0, Stage.SYNTHESIZING,
                new IllegalArgumentException("witness too short"))), StageTimings.ZERO)));

        runner.run(job.id());

        JobRecord failed = db.jobs.find(job.id()).orElseThrow();
        assertThat(failed.status()).isEqualTo(JobState.FAILED);
        assertThat(failed.error()).isEqualTo("partition 0 failed in SYNTHESIZING: witness too short");
        assertThat(events).singleElement().satisfies(e ->
                assertThat(((JobFinishedEvent) e).reason()).isEqualTo("IllegalArgumentException"));
    }

    @Test
    void aFullQueueHandsTheJobBackForLater() throws IOException {
        JobRecord job = queuedWithInputs(1);
        when(engine.submit(any())).thenThrow(new QueueFullException(10, 1, 10, Duration.ofSeconds(30)));

        Instant before = Instant.now();
        JobRunner.Outcome outcome = runner.run(job.id());

        assertThat(outcome).isInstanceOfSatisfying(JobRunner.Outcome.Retry.class, retry ->
                assertThat(retry.when()).isCloseTo(before.plusSeconds(30), within(Duration.ofSeconds(5))));
        JobRecord requeued = db.jobs.find(job.id()).orElseThrow();
        assertThat(requeued.status()).isEqualTo(JobState.QUEUED);
        assertThat(requeued.owner()).isNull();
        assertThat(data.job(job.id())).as("inputs kept for the next attempt").isDirectory();
    }

    @Test
    void aClosedIntakeHandsTheJobBack() throws IOException {
        JobRecord job = queuedWithInputs(1);
        when(engine.submit(any())).thenThrow(new IntakeClosedException("draining"));
        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Retry.class);
        assertThat(db.jobs.find(job.id()).orElseThrow().status()).isEqualTo(JobState.QUEUED);
    }

    @Test
    void aPartitionLargerThanTheBudgetFailsTheJob() throws IOException {
        JobRecord job = queuedWithInputs(1);
        when(engine.submit(any())).thenThrow(new PartitionTooLargeException(CIRCUIT, 1 << 30, 1 << 20));
        JobRecord failed = runToFailure(job);
        assertThat(failed.error()).isNotBlank();
    }

    @Test
    void missingInputsFailTheJobWithoutTheEngine() {
        JobRecord job = db.queued(CIRCUIT, 1);
        JobRecord failed = runToFailure(job);
        assertThat(failed.error()).startsWith("cannot read the job's inputs");
        verify(engine, never()).submit(any());
    }

    @Test
    void aJobWhoseCircuitWasDeletedFails() throws IOException {
        JobRecord job = queuedWithInputs(1);
        db.circuits.delete(CIRCUIT);
        JobRecord failed = runToFailure(job);
        assertThat(failed.error()).isEqualTo("circuit " + CIRCUIT + " was deleted");
        assertThat(data.job(job.id())).doesNotExist();
    }

    @Test
    void aCancellationAskedBeforeTheStartEndsTheJobThere() throws IOException {
        JobRecord job = queuedWithInputs(1);
        db.jobs.markRunning(job.id(), "another-instance");
        db.jobs.requestCancel(job.id());
        db.jobs.requeue(job.id());
        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Finished.class);
        assertThat(db.jobs.find(job.id()).orElseThrow().status()).isEqualTo(JobState.CANCELLED);
        verify(engine, never()).submit(any());
    }

    @Test
    void aCancellationAskedOnAnyInstanceReachesTheEngineWhileTheJobRuns() throws IOException {
        JobRecord job = queuedWithInputs(1);
        JobId engineId = new JobId("engine-1");
        CompletableFuture<JobResult> result = new CompletableFuture<>();
        when(engine.submit(any())).thenAnswer(call -> {
            db.jobs.requestCancel(job.id());  // asked through another instance's REST API meanwhile
            return engineId;
        });
        when(engine.result(engineId)).thenReturn(result);
        when(engine.status(engineId)).thenReturn(status(engineId, JobState.RUNNING,
                List.of(new PartitionStatus(0, Stage.PROVING, "cpu", StageTimings.ZERO))));
        when(engine.cancel(engineId)).thenAnswer(call -> result.complete(new JobResult(engineId,
                JobState.CANCELLED, List.of(), Optional.empty(), StageTimings.ZERO)));

        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Finished.class);
        verify(engine).cancel(engineId);
        assertThat(db.jobs.find(job.id()).orElseThrow().status()).isEqualTo(JobState.CANCELLED);
    }

    @Test
    void whileStoppingAJobIsNotStartedAndOneEndedByTheShutdownGoesBackToTheQueue() throws IOException {
        JobRecord job = queuedWithInputs(1);
        JobId engineId = new JobId("engine-1");
        when(engine.submit(any())).thenAnswer(call -> {
            runner.stopping();  // the instance begins to shut down while the job runs
            return engineId;
        });
        when(engine.result(engineId)).thenReturn(CompletableFuture.completedFuture(new JobResult(engineId,
                JobState.CANCELLED, List.of(), Optional.empty(), StageTimings.ZERO)));
        when(engine.status(engineId)).thenReturn(status(engineId, JobState.CANCELLED, List.of()));

        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Retry.class);
        assertThat(db.jobs.find(job.id()).orElseThrow().status()).isEqualTo(JobState.QUEUED);
        assertThat(data.job(job.id())).isDirectory();

        assertThat(runner.run(job.id())).as("not started again on this instance").isInstanceOf(
                JobRunner.Outcome.Retry.class);
        verify(engine).submit(any());
    }

    @Test
    void aResultForAJobFinishedElsewhereIsDropped() throws IOException {
        JobRecord job = queuedWithInputs(1);
        JobId engineId = new JobId("engine-1");
        when(engine.submit(any())).thenAnswer(call -> {
            db.jobs.finish(job.id(), JobState.DONE, null, null, List.of(new StoredProof(0, "{\"by\":\"other\"}", "[]")));
            return engineId;
        });
        when(engine.status(engineId)).thenReturn(status(engineId, JobState.DONE, List.of()));
        when(engine.result(engineId)).thenReturn(CompletableFuture.completedFuture(new JobResult(engineId,
                JobState.DONE, List.of(new ProofOutput("{\"by\":\"me\"}", "[]")), Optional.empty(),
                StageTimings.ZERO)));

        runner.run(job.id());
        assertThat(db.jobs.proofs(job.id())).extracting(StoredProof::proofJson).containsExactly("{\"by\":\"other\"}");
    }

    @Test
    void finishedOrUnknownJobsAreLeftAlone() {
        JobRecord job = db.queued(CIRCUIT, 1);
        db.jobs.finish(job.id(), JobState.DONE, null, null, List.of());
        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Finished.class);
        assertThat(runner.run("00000000-0000-0000-0000-000000000000")).isInstanceOf(JobRunner.Outcome.Finished.class);
        when(engine.isAcceptingWork()).thenReturn(false);
        JobRecord waiting = db.queued(CIRCUIT, 1);
        assertThat(runner.run(waiting.id())).isInstanceOf(JobRunner.Outcome.Retry.class);
        assertThat(db.jobs.find(waiting.id()).orElseThrow().status()).isEqualTo(JobState.QUEUED);
        verify(engine, never()).submit(any());
    }

    /** Runs the job to its end, which must be FAILED, and returns it as stored. */
    private JobRecord runToFailure(JobRecord job) {
        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Finished.class);
        JobRecord failed = db.jobs.find(job.id()).orElseThrow();
        assertThat(failed.status()).isEqualTo(JobState.FAILED);
        return failed;
    }

    private JobRunner runner() {
        return new JobRunner(db.jobs, db.circuits, engine, data, db.tx, events::add,
                new InstanceName("instance-test"));
    }

    private JobRecord queuedWithInputs(int partitions) throws IOException {
        JobRecord job = db.queued(CIRCUIT, partitions);
        for (int i = 0; i < partitions; i++) {
            Path input = JobRunner.inputFile(data, job.id(), i, PartitionInput.Format.WTNS);
            Files.createDirectories(input.getParent());
            Files.write(input, WITNESS);
        }
        return job;
    }

    private static JobStatus status(JobId id, JobState state, List<PartitionStatus> partitions) {
        return new JobStatus(id, CIRCUIT, state, Priority.NORMAL, partitions, StageTimings.ZERO, Optional.empty());
    }
}
