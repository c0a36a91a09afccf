package io.proofline.engine;

import io.proofline.lab.pipeline.BaselineAdmission;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.PartitionFootprint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import static io.proofline.engine.EngineFixture.PARTITION_BYTES;
import static io.proofline.engine.EngineFixture.eventually;
import static io.proofline.engine.EngineFixture.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProvingEngineTest {

    private EngineFixture fixture;

    private EngineFixture start(int partitionsInBudget, UnaryOperator<EngineConfig.Builder> settings, String... devices) {
        fixture = new EngineFixture(partitionsInBudget, settings, devices);
        return fixture;
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void provesEveryPartitionInOrderWithTimingsAndReleasesEverything() throws Exception {
        EngineFixture f = start(4, b -> b);
        JobId id = f.engine.submit(job(3));
        JobResult result = f.await(id);
        assertEquals(JobState.DONE, result.state());
        assertEquals(3, result.proofs().size());
        for (int i = 0; i < 3; i++) {
            assertTrue(result.proofs().get(i).proofJson().contains(id + "#" + i));
        }
        JobStatus status = f.engine.status(id);
        assertEquals(JobState.DONE, status.state());
        assertTrue(status.partitions().stream().allMatch(p -> p.stage() == Stage.DONE && p.device().equals("cpu")));
        assertTrue(status.timings().total().compareTo(Duration.ZERO) > 0);
        assertTrue(status.partitions().getFirst().timings().synthesis().compareTo(Duration.ZERO) > 0);
        f.assertAllReleased();
    }

    /**
     * Many synthesis workers in front of a stalled proving stage: the dispatcher stops at the budget, so no
     * more partitions hold ABC than the budget allows, at every lifecycle event.
     */
    @Test
    void reservedBytesAndAbcHoldersNeverExceedTheBudget() throws Exception {
        int fit = 3;
        EngineFixture f = start(fit, b -> b.synthesisWorkers(8).handoffCapacity(8));
        f.tracker.addListener((event, s) -> {
            if (s.budget().reservedBytes() > s.budget().totalBytes()) {
                f.violations.add(event + ": reserved " + s.budget().reservedBytes());
            }
            if (s.count(BufferClass.ABC) > fit) {
                f.violations.add(event + ": " + s.count(BufferClass.ABC) + " partitions hold ABC");
            }
        });
        Gate proving = Gate.interruptible();
        f.prover.onProveStart = (work, device) -> proving.pass();
        JobId id = f.engine.submit(job(10));
        proving.awaitArrivals(1);
        // Reserved is taken before synthesis starts, so also wait until the admitted partitions are synthesized.
        eventually("budget full, the admitted partitions synthesized and the rest queued", () -> {
            PipelineSnapshot s = f.engine.snapshot();
            return s.budget().reservedBytes() == fit * PARTITION_BYTES && s.queues().queued() == 10 - fit
                    && s.queues().synthesizing() == 0;
        });
        PipelineSnapshot stalled = f.engine.snapshot();
        assertEquals(fit, stalled.count(BufferClass.WITNESS), stalled::toLogLine);
        assertTrue(stalled.count(BufferClass.ABC) <= fit);
        proving.open();
        assertEquals(JobState.DONE, f.await(id).state());
        assertTrue(f.budget.peakReserved() <= f.budget.total());
        f.assertAllReleased();
    }

    /** The pre-fix design: the tracker shows synthesized partitions piling up in front of the GPU. */
    @Test
    void baselinePolicyPilesUpAbcInFrontOfTheGpuAndTheTrackerShowsIt() throws Exception {
        int fit = 3;
        EngineFixture f = start(fit, b -> b.admission(BaselineAdmission.INSTANCE).synthesisWorkers(8));
        Gate proving = Gate.interruptible();
        f.prover.onProveStart = (work, device) -> proving.pass();
        JobId id = f.engine.submit(job(10));
        proving.awaitArrivals(1);
        eventually("all synthesized", () -> f.engine.snapshot().cell(BufferClass.ABC, Stage.AWAITING_DEVICE).count() == 9);
        PipelineSnapshot pileUp = f.engine.snapshot();
        long waitingAbc = pileUp.cell(BufferClass.ABC, Stage.AWAITING_DEVICE).count();
        long budgetAllows = f.budget.total() / PARTITION_BYTES;
        assertTrue(waitingAbc > budgetAllows, "ABC holders awaiting the GPU: " + waitingAbc + ", budget allows " + budgetAllows);
        assertTrue(pileUp.bytes(BufferClass.ABC) + pileUp.bytes(BufferClass.WITNESS) > f.budget.total());
        assertEquals(-1, pileUp.queues().handoffCapacity());
        assertEquals(0, pileUp.budget().reservedBytes(), "BASELINE reserves no bytes");
        proving.open();
        assertEquals(JobState.DONE, f.await(id).state());
        f.assertAllReleased();
    }

    @Test
    void aHighPriorityJobOvertakesQueuedNormalOnesAndPartitionsGoLowestFirst() throws Exception {
        EngineFixture f = start(1, b -> b.synthesisWorkers(4));
        Gate first = Gate.interruptible();
        f.prover.onSynthesize = (work, device) -> {
            if (work.input().bytes().length == 1) {
                first.pass();
            }
        };
        JobId blocker = f.engine.submit(JobRequest.builder(EngineFixture.CIRCUIT)
                .partition(PartitionInput.wtns(new byte[1])).build());
        first.awaitArrivals(1);
        JobId normalA = f.engine.submit(job(2));
        JobId normalB = f.engine.submit(job(1));
        JobId high = f.engine.submit(job(1, Priority.HIGH));
        JobId critical = f.engine.submit(job(1, Priority.CRITICAL));
        JobId low = f.engine.submit(job(1, Priority.LOW));
        assertEquals(JobState.QUEUED, f.engine.status(high).state());
        first.open();
        for (JobId id : List.of(blocker, normalA, normalB, high, critical, low)) {
            assertEquals(JobState.DONE, f.await(id).state());
        }
        assertEquals(List.of(blocker + "#0", critical + "#0", high + "#0", normalA + "#0", normalA + "#1",
                normalB + "#0", low + "#0"), f.prover.synthesisOrder);
        f.assertAllReleased();
    }

    @Test
    void aPartitionThatCanNeverFitIsRejectedAtSubmission() throws Exception {
        EngineFixture f = start(1, b -> b);
        CircuitRef huge = new CircuitRef("huge", 1 << 20, 1 << 22, 1);
        PartitionTooLargeException e = assertThrows(PartitionTooLargeException.class, () -> f.engine.submit(
                JobRequest.builder(huge).partition(PartitionInput.wtns(new byte[10])).build()));
        assertEquals(PartitionFootprint.groth16(huge).total(), e.partitionBytes());
        assertEquals(PARTITION_BYTES, e.budgetBytes());
        f.assertAllReleased();
    }

    @Test
    void aFullQueueRefusesTheWholeJobWithRetryAfter() throws Exception {
        EngineFixture f = start(1, b -> b.queueCapacity(3).queueFullRetryAfter(Duration.ofSeconds(7)));
        Gate synthesis = Gate.interruptible();
        f.prover.onSynthesize = (work, device) -> synthesis.pass();
        JobId running = f.engine.submit(job(1));
        synthesis.awaitArrivals(1);
        JobId queued = f.engine.submit(job(2));
        QueueFullException full = assertThrows(QueueFullException.class, () -> f.engine.submit(job(2)));
        assertEquals(Duration.ofSeconds(7), full.retryAfter());
        assertEquals(2, f.engine.snapshot().cell(BufferClass.INPUT, Stage.QUEUED).count(),
                "the refused job leaves nothing counted");
        JobId fits = f.engine.submit(job(1));
        synthesis.open();
        for (JobId id : List.of(running, queued, fits)) {
            assertEquals(JobState.DONE, f.await(id).state());
        }
        f.assertAllReleased();
    }

    @Test
    void aDeviceFaultOpensThatDevicesBreakerAndTheWorkMovesToTheOtherDevice() throws Exception {
        EngineFixture f = start(4, b -> b, "gpu0", "gpu1");
        f.prover.onProveStart = (work, device) -> {
            if (device.id().equals("gpu0")) {
                throw new DeviceFaultException("CUDA_ERROR_ILLEGAL_ADDRESS");
            }
        };
        JobId id = f.engine.submit(job(4));
        JobResult result = f.await(id);
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        assertTrue(f.engine.status(id).partitions().stream().allMatch(p -> p.device().equals("gpu1")));
        DeviceFigures gpu0 = f.engine.snapshot().devices().stream().filter(d -> d.id().equals("gpu0")).findFirst().orElseThrow();
        assertEquals("OPEN", gpu0.breakerState());
        JobId next = f.engine.submit(job(2));
        assertEquals(JobState.DONE, f.await(next).state());
        f.assertAllReleased();
    }

    @Test
    void withEveryDeviceFaultingTheJobFails() throws Exception {
        EngineFixture f = start(2, b -> b, "gpu0");
        f.prover.onProveStart = (work, device) -> {
            throw new DeviceFaultException("device lost");
        };
        JobResult result = f.await(f.engine.submit(job(2)));
        assertEquals(JobState.FAILED, result.state());
        assertInstanceOf(NoDeviceAvailableException.class, result.failure().orElseThrow().cause());
        f.assertAllReleased();
    }

    @Test
    void drainStopsIntakeButFinishesAdmittedWorkAndResumeReopens() throws Exception {
        EngineFixture f = start(2, b -> b);
        Gate synthesis = Gate.interruptible();
        f.prover.onSynthesize = (work, device) -> synthesis.pass();
        JobId admitted = f.engine.submit(job(1));
        f.engine.drain();
        assertFalse(f.engine.isAcceptingWork());
        assertThrows(IntakeClosedException.class, () -> f.engine.submit(job(1)));
        synthesis.open();
        assertEquals(JobState.DONE, f.await(admitted).state());
        f.engine.resume();
        assertTrue(f.engine.isAcceptingWork());
        assertEquals(JobState.DONE, f.await(f.engine.submit(job(1))).state());
        f.assertAllReleased();
    }

    @Test
    void aJobPastItsDeadlineFailsAndReleasesEverything() throws Exception {
        EngineFixture f = start(2, b -> b);
        Gate never = Gate.interruptible();
        f.prover.onSynthesize = (work, device) -> never.pass();
        JobId id = f.engine.submit(JobRequest.builder(EngineFixture.CIRCUIT).partition(PartitionInput.wtns(new byte[8]))
                .partition(PartitionInput.wtns(new byte[8])).deadline(Duration.ofMillis(100)).build());
        JobResult result = f.await(id);
        assertEquals(JobState.FAILED, result.state());
        JobFailure failure = result.failure().orElseThrow();
        assertEquals(JobFailure.WHOLE_JOB, failure.partition());
        assertInstanceOf(DeadlineExceededException.class, failure.cause());
        f.assertAllReleased();
    }

    @Test
    void shutdownFinishesInFlightWorkWithinGraceAndReportsQueuedJobs() throws Exception {
        EngineFixture f = start(1, b -> b);
        Gate proving = Gate.interruptible();
        f.prover.onProveStart = (work, device) -> proving.pass();
        JobId inFlight = f.engine.submit(job(1));
        proving.awaitArrivals(1);
        JobId queued = f.engine.submit(job(2));
        Thread opener = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ignored) {
                // the test ends anyway
            }
            proving.open();
        });
        ShutdownReport report = f.engine.shutdown(Duration.ofSeconds(10));
        opener.join();
        assertEquals(List.of(queued), report.leftQueued());
        assertTrue(report.clean());
        assertEquals(JobState.DONE, f.await(inFlight).state());
        assertEquals(JobState.CANCELLED, f.await(queued).state());
        assertThrows(IntakeClosedException.class, () -> f.engine.submit(job(1)));
        assertEquals(report, f.engine.shutdown(Duration.ZERO));
        f.assertAllReleased();
    }

    @Test
    void shutdownCancelsWorkThatOverrunsTheGracePeriod() throws Exception {
        EngineFixture f = start(1, b -> b);
        Gate proving = Gate.interruptible();
        f.prover.onProveStart = (work, device) -> proving.pass();
        JobId stuck = f.engine.submit(job(1));
        proving.awaitArrivals(1);
        ShutdownReport report = f.engine.shutdown(Duration.ofMillis(20));
        assertEquals(List.of(stuck), report.cancelledInFlight());
        assertFalse(report.clean());
        assertEquals(JobState.CANCELLED, f.await(stuck).state());
        f.assertAllReleased();
    }

    @Test
    void anAdapterThatAllocatesMoreThanItsFootprintFailsThePartition() throws Exception {
        EngineFixture f = start(2, b -> b);
        f.prover.extraAbcBytes = 1;
        JobResult result = f.await(f.engine.submit(job(1)));
        assertEquals(JobState.FAILED, result.state());
        JobFailure failure = result.failure().orElseThrow();
        assertEquals(Stage.SYNTHESIZING, failure.stage());
        assertInstanceOf(IllegalStateException.class, failure.cause());
        assertTrue(failure.cause().getMessage().contains("footprint"), failure.cause().getMessage());
        f.assertAllReleased();
    }

    @Test
    void unknownJobsAreReported() {
        EngineFixture f = start(1, b -> b);
        assertThrows(UnknownJobException.class, () -> f.engine.status(JobId.random()));
        assertThrows(UnknownJobException.class, () -> f.engine.cancel(JobId.random()));
    }
}
