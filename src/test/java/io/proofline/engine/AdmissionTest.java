package io.proofline.engine;

import io.proofline.engine.memory.MemoryBudget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

import static io.proofline.engine.EngineFixture.PARTITION_BYTES;
import static io.proofline.engine.EngineFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Admission of keys and partitions together (issue #18, "No deadlock, no starvation"): the dispatcher reserves a
 * partition with its circuit's key, evicts only unused keys and only what the head lacks, ends a head that waited
 * past {@code admissionWait} with a retryable failure, and survives its own death.
 */
class AdmissionTest {

    /** Two circuits of the fixture's shape whose keys are each larger than a partition. */
    static final CircuitRef A = new CircuitRef("circuit-a", 32, 64, 1);
    static final CircuitRef B = new CircuitRef("circuit-b", 32, 64, 1);
    static final long KEY = 2 * PARTITION_BYTES;

    private EngineFixture fixture;

    private EngineFixture start(long budget, FakeKeys keys, UnaryOperator<EngineConfig.Builder> settings) {
        fixture = new EngineFixture(0, settings, keys, new MemoryBudget(budget));
        fixture.prover.onSynthesize = (work, device) -> keys.use(work.circuit().id());
        return fixture;
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    static JobRequest job(CircuitRef circuit, int partitions) {
        JobRequest.Builder b = JobRequest.builder(circuit);
        for (int i = 0; i < partitions; i++) {
            b.partition(PartitionInput.wtns(new byte[16]));
        }
        return b.build();
    }

    // The two-circuit deadlock of the issue is a fixed case of RandomizedScheduleTest.

    @Test
    void aPartitionAndItsKeyThatCanNeverFitTogetherAreRefusedAtSubmit() {
        FakeKeys keys = new FakeKeys(Map.of(A.id(), KEY));
        EngineFixture f = start(KEY + PARTITION_BYTES - 1, keys, b -> b);
        PartitionTooLargeException e = assertThrows(PartitionTooLargeException.class,
                () -> f.engine.submit(job(A, 1)));
        assertTrue(e.getMessage().contains(String.valueOf(KEY + PARTITION_BYTES)), e.getMessage());
    }

    /** A head whose memory does not come back in time: its job ends retryable, and the queue behind it moves. */
    @Test
    void aHeadThatWaitsPastTheAdmissionWaitEndsItsJobRetryably() throws Exception {
        FakeKeys keys = new FakeKeys(Map.of());
        EngineFixture f = start(PARTITION_BYTES, keys, b -> b.admissionWait(Duration.ofMillis(200)));
        Gate stuck = Gate.interruptible();
        // Only the first synthesis holds the gate: the job id is not known before submit returns, and its
        // partition may already be synthesizing by then.
        AtomicBoolean first = new AtomicBoolean(true);
        f.prover.onSynthesize = (work, device) -> {
            if (first.getAndSet(false)) {
                stuck.pass();
            }
        };
        JobId firstJob = f.engine.submit(job(A, 1));
        stuck.awaitArrivals(1);
        JobId waiting = f.engine.submit(job(A, 1));

        JobResult timedOut = f.await(waiting);
        assertEquals(JobState.FAILED, timedOut.state());
        Throwable cause = timedOut.failure().orElseThrow().cause();
        assertInstanceOf(AdmissionTimeoutException.class, cause);
        assertInstanceOf(RetryableException.class, cause);
        stuck.open();
        assertEquals(JobState.DONE, f.await(firstJob).state());
        f.assertAllReleased();
    }

    /** An exception escaping the dispatcher (here: from a broken key cache) kills its thread; it is restarted. */
    @Test
    void aDispatcherThatDiesIsRestartedAndItsHealthShowsIt() throws Exception {
        FakeKeys keys = new FakeKeys(Map.of(A.id(), KEY, B.id(), KEY));
        EngineFixture f = start(KEY + PARTITION_BYTES, keys, b -> b);
        assertEquals(JobState.DONE, f.await(f.engine.submit(job(B, 1))).state());
        assertTrue(f.engine.dispatcherHealth().alive());
        keys.failingEvictions.set(3);

        JobResult result = f.await(f.engine.submit(job(A, 2)));

        assertEquals(JobState.DONE, result.state(), "the queued work waited for the restarted dispatcher");
        DispatcherHealth health = f.engine.dispatcherHealth();
        assertTrue(health.alive());
        assertEquals(3, health.restarts());
        assertTrue(health.lastFailure().orElseThrow().contains("injected failure while evicting"));
        assertTrue(health.lastFailureAt().isPresent());
        keys.evictUnused(Long.MAX_VALUE, java.util.List.of());
        f.assertAllReleased();
    }

    @Test
    void aDeadDispatcherIsReportedWhileItWaitsToRestart() throws Exception {
        FakeKeys keys = new FakeKeys(Map.of(A.id(), KEY, B.id(), KEY));
        EngineFixture f = start(KEY + PARTITION_BYTES, keys, b -> b);
        assertEquals(JobState.DONE, f.await(f.engine.submit(job(B, 1))).state());
        keys.failingEvictions.set(Integer.MAX_VALUE);
        JobId stuck = f.engine.submit(job(A, 1));
        eventually("the dispatcher died", () -> !f.engine.dispatcherHealth().alive());
        assertFalse(f.engine.result(stuck).isDone());
        keys.failingEvictions.set(0);
        assertEquals(JobState.DONE, f.await(stuck).state());
        assertTrue(f.engine.dispatcherHealth().alive());
        keys.evictUnused(Long.MAX_VALUE, java.util.List.of());
        f.assertAllReleased();
    }

    /** An I/O error reading a key fails the partition retryably; the key's bytes go back with the partition. */
    @Test
    void anIoErrorAtKeyLoadFailsRetryablyAndLeaksNothing() throws Exception {
        FakeKeys keys = new FakeKeys(Map.of(A.id(), KEY));
        EngineFixture f = start(KEY + 2 * PARTITION_BYTES, keys, b -> b);
        f.prover.onSynthesize = (work, device) -> {
            try {
                keys.use(work.circuit().id());
            } catch (java.io.IOException e) {
                throw new RetryableException("cannot read the key: " + e.getMessage(), e);
            }
        };
        keys.failingLoads.set(1);
        JobResult failed = f.await(f.engine.submit(job(A, 1)));
        assertEquals(JobState.FAILED, failed.state());
        assertInstanceOf(RetryableException.class, failed.failure().orElseThrow().cause());
        eventually("the unread key's bytes went back", () -> f.budget.reserved() == 0);
        assertTrue(keys.resident().isEmpty());
        assertEquals(JobState.DONE, f.await(f.engine.submit(job(A, 2))).state());
        keys.evictUnused(Long.MAX_VALUE, java.util.List.of());
        f.assertAllReleased();
    }
}
