package io.proofline.service.jobs;

import io.proofline.service.DataDirectory;
import io.proofline.service.InstanceName;
import io.proofline.service.JobsDatabase;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.KeyCacheTest;
import io.proofline.service.config.RetryProperties;
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
import io.proofline.engine.RetryableException;
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
import java.util.concurrent.atomic.AtomicReference;

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
    static final int MAX_CRASHES = 3;
    static final Duration MAX_BACKOFF = Duration.ofSeconds(40);

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
        // the engine gets the stored files, read when each partition is synthesized: none of it on the heap now
        List<PartitionInput> inputs = request.getValue().partitions();
        assertThat(inputs).hasSize(2);
        for (int i = 0; i < inputs.size(); i++) {
            PartitionInput p = inputs.get(i);
            assertThat(p.format()).isEqualTo(PartitionInput.Format.WTNS);
            assertThat(p.file()).contains(JobRunner.inputFile(data, job.id(), i, PartitionInput.Format.WTNS));
            assertThat(p.size()).isEqualTo(WITNESS.length);
            assertThat(p.heapBytes()).isZero();
        }
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
        assertThat(failed.error()).startsWith("an input of the job is gone");
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
        Lease other = db.jobs.markRunning(job.id(), "another-instance", false).orElseThrow();
        db.jobs.requestCancel(job.id());
        db.jobs.requeue(other);
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
            db.finishNow(job.id(), JobState.DONE, null, null, List.of(new StoredProof(0, "{\"by\":\"other\"}", "[]")));
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
        db.finishNow(job.id(), JobState.DONE, null, null, List.of());
        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Finished.class);
        assertThat(runner.run("00000000-0000-0000-0000-000000000000")).isInstanceOf(JobRunner.Outcome.Finished.class);
        when(engine.isAcceptingWork()).thenReturn(false);
        JobRecord waiting = db.queued(CIRCUIT, 1);
        assertThat(runner.run(waiting.id())).isInstanceOf(JobRunner.Outcome.Retry.class);
        assertThat(db.jobs.find(waiting.id()).orElseThrow().status()).isEqualTo(JobState.QUEUED);
        verify(engine, never()).submit(any());
    }

    /** The engine's result for {@code engineId} is a failure of partition 0 with {@code cause}. */
    private void engineFails(JobId engineId, Throwable cause) {
        when(engine.submit(any())).thenReturn(engineId);
        when(engine.status(engineId)).thenReturn(status(engineId, JobState.FAILED, List.of()));
        when(engine.result(engineId)).thenReturn(CompletableFuture.completedFuture(new JobResult(engineId,
                JobState.FAILED, List.of(), Optional.of(new JobFailure(0, Stage.SYNTHESIZING, cause)),
                StageTimings.ZERO)));
    }

    /** A failure that may pass is never the job's end: back to the queue, the backoff doubling up to its bound. */
    @Test
    void aTransientFailureGoesBackToTheQueueWithADoublingBoundedBackoffHoweverOften() throws IOException {
        JobRecord job = queuedWithInputs(1);
        engineFails(new JobId("engine-1"), new IllegalStateException("wrapped",
                new RetryableException("cannot read the key of circuit x: disk hiccup")));

        for (int run = 0; run < 6; run++) {
            Instant before = Instant.now();
            JobRunner.Outcome outcome = runner.run(job.id());
            Duration doubled = Duration.ofSeconds(10L << run);
            Duration backoff = doubled.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : doubled;
            assertThat(outcome).isInstanceOfSatisfying(JobRunner.Outcome.Retry.class, retry ->
                    assertThat(retry.when()).isCloseTo(before.plus(backoff), within(Duration.ofSeconds(3))));
            JobRecord requeued = db.jobs.find(job.id()).orElseThrow();
            assertThat(requeued.status()).isEqualTo(JobState.QUEUED);
            assertThat(requeued.error()).contains("disk hiccup");
            assertThat(requeued.attempts()).as("a run handed back is not a crash").isZero();
            assertThat(data.job(job.id())).as("inputs kept for the rerun").isDirectory();
        }
        assertThat(events).hasSize(0);
    }

    /** The service's own error is not the job's: it runs again later. */
    @Test
    void anUnexpectedErrorOfTheRunSendsTheJobBackInsteadOfFailingIt() throws IOException {
        JobRecord job = queuedWithInputs(1);
        when(engine.submit(any())).thenThrow(new IllegalStateException("a bug"));
        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Retry.class);
        JobRecord requeued = db.jobs.find(job.id()).orElseThrow();
        assertThat(requeued.status()).isEqualTo(JobState.QUEUED);
        assertThat(requeued.error()).contains("internal error").contains("a bug");
    }

    /** A deadline its client set ends the job once it passed, without a run. */
    @Test
    void aJobWhoseDeadlinePassedIsFailedNotRun() throws IOException {
        JobRecord job = queuedWithInputs(1, Instant.now().minusSeconds(1));
        JobRecord failed = runToFailure(job);
        assertThat(failed.error()).contains("deadline").contains("passed");
        verify(engine, never()).submit(any());
    }

    /** The time left before the client's deadline goes to the engine, which fails the job when it passes. */
    @Test
    void theTimeLeftBeforeTheDeadlineIsTheEnginesDeadline() throws IOException {
        JobRecord job = queuedWithInputs(1, Instant.now().plusSeconds(600));
        engineFails(new JobId("engine-1"), new io.proofline.engine.DeadlineExceededException(
                new JobId("engine-1"), Duration.ofSeconds(600)));
        assertThat(runToFailure(job).error()).contains("deadline");
        ArgumentCaptor<JobRequest> request = ArgumentCaptor.forClass(JobRequest.class);
        verify(engine).submit(request.capture());
        assertThat(request.getValue().deadline()).hasValueSatisfying(left -> assertThat(left)
                .isBetween(Duration.ofSeconds(590), Duration.ofSeconds(600)));
    }

    @Test
    void aJobThatFoundNoUsableDeviceGoesBackToTheQueue() throws IOException {
        JobRecord job = queuedWithInputs(1);
        engineFails(new JobId("engine-1"), new io.proofline.engine.NoDeviceAvailableException(
                "every device faulted on this partition", new io.proofline.snark.prover.DeviceFaultException(
                        "device gpu0: CUDA_ERROR_ILLEGAL_ADDRESS")));
        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Retry.class);
        JobRecord requeued = db.jobs.find(job.id()).orElseThrow();
        assertThat(requeued.status()).isEqualTo(JobState.QUEUED);
        assertThat(requeued.error()).contains("every device faulted on this partition");
        assertThat(requeued.error().indexOf("no proving device available"))
                .as("the reason is not repeated").isEqualTo(requeued.error().lastIndexOf("no proving device available"));
    }

    @Test
    void aPermanentFailureIsNotRetried() throws IOException {
        JobRecord job = queuedWithInputs(1);
        engineFails(new JobId("engine-1"), new IllegalArgumentException("witness too short"));
        assertThat(runToFailure(job).error()).contains("witness too short");
    }

    /**
     * A run that died while it ran alone is charged to its job (each claim blames the dead run before it); once
     * {@code max-crashes} are charged the job is quarantined instead of run again. Runs handed back count for nothing.
     */
    @Test
    void aJobWhoseRunsAloneKeepKillingTheirInstanceIsQuarantinedInsteadOfRunAgain() throws IOException {
        JobRecord job = queuedWithInputs(1);
        for (int i = 1; i <= 5; i++) {
            Lease handedBack = db.jobs.markRunning(job.id(), "draining-" + i, false).orElseThrow();
            db.jobs.requeue(handedBack);
        }
        for (int i = 1; i <= MAX_CRASHES; i++) {
            diedAtWork(job, "died-alone-" + i, true);
        }
        JobRecord quarantined = runToFailure(job);
        assertThat(quarantined.error()).contains("poison").contains(MAX_CRASHES + " runs")
                .contains("ran alone").contains("proofline.store.max-crashes");
        verify(engine, never()).submit(any());
        assertThat(data.job(job.id())).doesNotExist();
    }

    /** Deaths beside other jobs charge nothing, however many: the job becomes a suspect and runs, alone. */
    @Test
    void aJobWhoseInstanceDiedBesideOtherJobsIsASuspectThatRunsAlone() throws IOException {
        JobRecord job = queuedWithInputs(1);
        for (int i = 1; i <= MAX_CRASHES + 2; i++) {
            diedAtWork(job, "died-beside-others-" + i, false);
        }
        JobRecord other = queuedWithInputs(1);
        AtomicReference<Boolean> otherMayStart = new AtomicReference<>();
        JobId engineId = new JobId("engine-1");
        engineFails(engineId, new IllegalArgumentException("witness too short"));
        when(engine.submit(any())).thenAnswer(call -> {
            // while the suspect runs, no other job may start on this instance
            otherMayStart.set(runner.run(other.id()) instanceof JobRunner.Outcome.Retry);
            return engineId;
        });
        runToFailure(job);
        assertThat(otherMayStart.get()).as("the other job was turned away while the suspect ran").isTrue();
        assertThat(db.jobs.runState(job.id()).orElseThrow()).satisfies(state -> {
            assertThat(state.suspect()).isTrue();
            assertThat(state.crashes()).isZero();
        });
        assertThat(db.jobs.find(other.id()).orElseThrow().status()).isEqualTo(JobState.QUEUED);
    }

    @Test
    void aJobWithCrashesLeftIsRunAfterItsInstanceDied() throws IOException {
        JobRecord job = queuedWithInputs(1);
        for (int i = 1; i < MAX_CRASHES; i++) {
            diedAtWork(job, "died-alone-" + i, true);
        }
        engineFails(new JobId("engine-1"), new IllegalArgumentException("witness too short"));
        runToFailure(job);
        verify(engine).submit(any());
    }

    /** A run that died before it began its work (queued in the engine) caused nothing: no suspect, no charge. */
    @Test
    void aRunThatDiedBeforeItsWorkBeganIsNotBlamed() throws IOException {
        JobRecord job = queuedWithInputs(1);
        for (int i = 1; i <= MAX_CRASHES + 2; i++) {
            db.jobs.markRunning(job.id(), "died-waiting-" + i, true).orElseThrow();
        }
        engineFails(new JobId("engine-1"), new IllegalArgumentException("witness too short"));
        runToFailure(job);
        assertThat(db.jobs.runState(job.id()).orElseThrow()).satisfies(state -> {
            assertThat(state.suspect()).isFalse();
            assertThat(state.crashes()).isZero();
        });
    }

    /** The job's run on {@code instance} began its work, then its instance died (the row stays as it left it). */
    private void diedAtWork(JobRecord job, String instance, boolean alone) {
        Lease lease = db.jobs.markRunning(job.id(), instance, alone).orElseThrow();
        assertThat(db.jobs.markDispatched(lease)).isTrue();
    }

    /**
     * Fencing: while this run was out of touch another instance took the job over; this run cancels its engine job
     * and writes nothing (no stages, no requeue, no result).
     */
    @Test
    void aRunWhoseJobWasTakenOverCancelsItselfAndWritesNothing() throws IOException {
        JobRecord job = queuedWithInputs(1);
        JobId engineId = new JobId("engine-1");
        CompletableFuture<JobResult> result = new CompletableFuture<>();
        when(engine.submit(any())).thenReturn(engineId);
        when(engine.result(engineId)).thenReturn(result);
        when(engine.status(engineId)).thenAnswer(call -> {
            if (db.jobs.find(job.id()).orElseThrow().owner().equals("instance-test")) {
                db.jobs.markRunning(job.id(), "instance-b", false).orElseThrow();  // the takeover
            }
            return status(engineId, JobState.RUNNING, List.of(
                    new PartitionStatus(0, Stage.PROVING, "gpu0", StageTimings.ZERO)));
        });
        when(engine.cancel(engineId)).thenAnswer(call -> result.complete(new JobResult(engineId,
                JobState.CANCELLED, List.of(), Optional.empty(), StageTimings.ZERO)));

        assertThat(runner.run(job.id())).isInstanceOf(JobRunner.Outcome.Finished.class);

        verify(engine).cancel(engineId);
        JobRecord taken = db.jobs.find(job.id()).orElseThrow();
        assertThat(taken.status()).isEqualTo(JobState.RUNNING);
        assertThat(taken.owner()).isEqualTo("instance-b");
        assertThat(db.jobs.partitions(job.id())).allSatisfy(p -> assertThat(p.stage()).isEqualTo(Stage.QUEUED));
        assertThat(data.job(job.id())).as("the new owner's inputs").isDirectory();
        assertThat(events).isEmpty();
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
                new InstanceName("instance-test"), JobsDatabase.storeProperties(dir, MAX_CRASHES),
                new RetryProperties(Duration.ofMinutes(10), Duration.ofSeconds(10), MAX_BACKOFF),
                new io.proofline.service.tenants.TenantPolicies(io.proofline.service.tenants.TenantPolicy.UNLIMITED,
                        java.util.Map.of()));
    }

    private JobRecord queuedWithInputs(int partitions) throws IOException {
        return queuedWithInputs(partitions, null);
    }

    private JobRecord queuedWithInputs(int partitions, Instant deadlineAt) throws IOException {
        JobRecord job = db.queued(CIRCUIT, partitions, deadlineAt);
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
