package io.proofline.engine;

import io.proofline.engine.memory.BufferClass;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static io.proofline.engine.EngineFixture.eventually;
import static io.proofline.engine.EngineFixture.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way out of every stage returns every byte: counters and the reservation total end at zero. */
class CancellationAndFailureTest {

    private EngineFixture fixture;

    private EngineFixture start(int partitionsInBudget, UnaryOperator<EngineConfig.Builder> settings) {
        fixture = new EngineFixture(partitionsInBudget, settings);
        return fixture;
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Puts {@code hook} where the partition is in {@code stage}. */
    private static void hookAt(FakeProver prover, Stage stage, FakeProver.Hook hook) {
        switch (stage) {
            case SYNTHESIZING -> prover.onSynthesize = hook;
            case PROVING -> prover.onProveStart = hook;
            case FINALIZING -> prover.onProveFinish = hook;
            case VERIFYING -> prover.onVerify = hook;
            default -> throw new IllegalArgumentException("no port call in " + stage);
        }
    }

    static Stream<Arguments> stagesWithPortCalls() {
        return Stream.of(Stage.SYNTHESIZING, Stage.PROVING, Stage.FINALIZING, Stage.VERIFYING)
                .flatMap(s -> Stream.of(Arguments.of(s, true), Arguments.of(s, false)));
    }

    @ParameterizedTest(name = "cancel in {0}, interruptible call: {1}")
    @MethodSource("stagesWithPortCalls")
    void cancellingARunningPartitionSkipsTheRestAndReleasesEverything(Stage stage, boolean interruptible)
            throws Exception {
        EngineFixture f = start(1, b -> b);
        Gate gate = interruptible ? Gate.interruptible() : Gate.uninterruptible();
        hookAt(f.prover, stage, (work, device) -> {
            if (work.partition() == 0) {
                gate.pass();
            }
        });
        JobId id = f.engine.submit(job(3));
        gate.awaitArrivals(1);
        assertEquals(stage, f.engine.status(id).partitions().getFirst().stage());
        assertEquals(Stage.QUEUED, f.engine.status(id).partitions().get(2).stage());
        assertTrue(f.engine.cancel(id));
        if (!interruptible) {
            gate.open();
        }
        JobResult result = f.await(id);
        assertEquals(JobState.CANCELLED, result.state());
        assertTrue(result.proofs().isEmpty());
        List<PartitionStatus> partitions = f.engine.status(id).partitions();
        assertEquals(Stage.CANCELLED, partitions.get(1).stage());
        assertEquals(Stage.CANCELLED, partitions.get(2).stage());
        if (stage != Stage.VERIFYING || interruptible) {
            assertEquals(Stage.CANCELLED, partitions.getFirst().stage());
        }
        assertFalse(f.engine.cancel(id), "a finished job cannot be cancelled again");
        gate.open();
        f.assertAllReleased();
    }

    @Test
    void cancellingAQueuedJobFreesItsInputAtOnce() throws Exception {
        EngineFixture f = start(1, b -> b);
        Gate synthesis = Gate.interruptible();
        f.prover.onSynthesize = (work, device) -> synthesis.pass();
        JobId running = f.engine.submit(job(1));
        synthesis.awaitArrivals(1);
        JobId queued = f.engine.submit(job(2));
        assertEquals(JobState.QUEUED, f.engine.status(queued).state());
        f.engine.cancel(queued);
        assertEquals(JobState.CANCELLED, f.await(queued).state());
        assertEquals(0, f.engine.snapshot().cell(BufferClass.INPUT, Stage.QUEUED).count());
        synthesis.open();
        assertEquals(JobState.DONE, f.await(running).state());
        f.assertAllReleased();
    }

    @Test
    void cancellingAPartitionWaitingForTheGpuFreesItsBuffersAndReservation() throws Exception {
        EngineFixture f = start(2, b -> b);
        Gate proving = Gate.interruptible();
        f.prover.onProveStart = (work, device) -> proving.pass();
        JobId running = f.engine.submit(job(1));
        proving.awaitArrivals(1);
        JobId waiting = f.engine.submit(job(1));
        eventually("second job synthesized", () -> f.engine.status(waiting).partitions().getFirst().stage()
                == Stage.AWAITING_DEVICE);
        assertEquals(1, f.engine.snapshot().cell(BufferClass.ABC, Stage.AWAITING_DEVICE).count());
        f.engine.cancel(waiting);
        assertEquals(JobState.CANCELLED, f.await(waiting).state());
        PipelineSnapshot after = f.engine.snapshot();
        assertEquals(0, after.cell(BufferClass.ABC, Stage.AWAITING_DEVICE).count());
        assertEquals(EngineFixture.PARTITION_BYTES, after.budget().reservedBytes(), "only the running job's bytes");
        proving.open();
        assertEquals(JobState.DONE, f.await(running).state());
        f.assertAllReleased();
    }

    @ParameterizedTest(name = "failure in {0}")
    @EnumSource(value = Stage.class, names = {"SYNTHESIZING", "PROVING", "FINALIZING", "VERIFYING"})
    void aFailedPartitionFailsItsJobSkipsTheRestAndReleasesEverything(Stage stage) throws Exception {
        EngineFixture f = start(1, b -> b);
        hookAt(f.prover, stage, (work, device) -> {
            if (work.partition() == 0) {
                throw new IllegalStateException("boom in " + stage);
            }
        });
        JobId id = f.engine.submit(job(3));
        JobResult result = f.await(id);
        assertEquals(JobState.FAILED, result.state());
        JobFailure failure = result.failure().orElseThrow();
        assertEquals(0, failure.partition());
        assertEquals(stage, failure.stage());
        assertEquals("boom in " + stage, failure.cause().getMessage());
        List<PartitionStatus> partitions = f.engine.status(id).partitions();
        assertEquals(Stage.FAILED, partitions.getFirst().stage());
        assertEquals(Stage.CANCELLED, partitions.get(2).stage());
        assertTrue(f.engine.status(id).failure().isPresent());
        f.assertAllReleased();
    }

    @Test
    void aProofThatDoesNotVerifyFailsTheJob() throws Exception {
        EngineFixture f = start(2, b -> b);
        f.prover.proofsValid = false;
        JobResult result = f.await(f.engine.submit(job(1)));
        assertEquals(JobState.FAILED, result.state());
        assertInstanceOf(InvalidProofException.class, result.failure().orElseThrow().cause());
        assertEquals(Stage.VERIFYING, result.failure().orElseThrow().stage());
        f.assertAllReleased();
    }

    @Test
    void verificationCanBeTurnedOffPerJob() throws Exception {
        EngineFixture f = start(2, b -> b);
        f.prover.proofsValid = false;
        JobResult result = f.await(f.engine.submit(JobRequest.builder(EngineFixture.CIRCUIT)
                .partition(PartitionInput.wtns(new byte[4])).verify(false).build()));
        assertEquals(JobState.DONE, result.state());
        f.assertAllReleased();
    }
}
