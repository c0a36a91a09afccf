package io.proofline.engine;

import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.poly.TwiddleCache;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded random schedules mixing submissions, cancellations, deadlines, injected failures in every stage and
 * device faults: afterwards every job has reached a terminal state and every counter is back at zero. A second
 * schedule has several circuits whose keys and partitions compete for one budget (issue #18), with I/O errors
 * injected where keys are read and a key cache that throws while evicting (killing the dispatcher, which is
 * restarted): reserved bytes never exceed the budget, every job ends, nothing stays reserved or in use. The
 * two-circuit deadlock of the issue is a fixed case.
 * Run one seed again with {@code -Dengine.seed=N}; stress with {@code -Dengine.seeds=COUNT} (seeds 1..COUNT).
 */
class RandomizedScheduleTest {

    private static final int OPERATIONS = 150;
    private static final int PARTITIONS_IN_BUDGET = 3;
    /** Where a planned failure strikes; index 0 is "no failure". */
    private static final Stage[] FAIL_AT = {null, Stage.SYNTHESIZING, Stage.PROVING, Stage.FINALIZING, Stage.VERIFYING};

    private EngineFixture fixture;

    static LongStream seeds() {
        String one = System.getProperty("engine.seed");
        if (one != null) {
            return LongStream.of(Long.parseLong(one));
        }
        String many = System.getProperty("engine.seeds");
        return many != null ? LongStream.rangeClosed(1, Long.parseLong(many)) : LongStream.of(11, 22, 33, 44);
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomSchedulesEndTerminalWithNothingLeft(long seed) throws Throwable {
        try {
            run(seed);
        } catch (Throwable t) {
            System.err.println("RandomizedScheduleTest failed with seed " + seed + " (rerun: -Dengine.seed=" + seed + ")");
            throw new AssertionError("seed " + seed + ": " + t.getMessage(), t);
        }
    }

    private void run(long seed) throws Exception {
        Random random = new Random(seed);
        fixture = new EngineFixture(PARTITIONS_IN_BUDGET, b -> b.synthesisWorkers(3).handoffCapacity(2)
                .workersPerDevice(2).finalizerThreads(2).queueCapacity(24).breakerMinimumCalls(3)
                .deviceRetryAfter(Duration.ofMillis(20)), "gpu0", "gpu1");
        EngineFixture f = fixture;
        watchInvariants(f);
        installPlans(f.prover);

        Map<JobId, Boolean> plannedFailure = new HashMap<>();
        List<JobId> submitted = new ArrayList<>();
        int refused = 0;
        for (int op = 0; op < OPERATIONS; op++) {
            double dice = random.nextDouble();
            if (dice < 0.6) {
                JobRequest request = randomJob(random);
                try {
                    JobId id = f.engine.submit(request);
                    submitted.add(id);
                    plannedFailure.put(id, request.partitions().stream().anyMatch(p -> reachable(FAIL_AT[p.bytes()[0]],
                            request.verify().orElseThrow())));
                } catch (QueueFullException full) {
                    refused++;
                }
            } else if (dice < 0.8 && !submitted.isEmpty()) {
                f.engine.cancel(submitted.get(random.nextInt(submitted.size())));
            } else {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(random.nextInt(500)));
            }
        }

        for (JobId id : submitted) {
            JobResult result = f.await(id);
            assertTrue(result.state().isTerminal());
            assertTrue(f.engine.status(id).partitions().stream().allMatch(p -> p.stage().isTerminal()));
            switch (result.state()) {
                case DONE -> {
                    assertFalse(plannedFailure.get(id), "a job with a planned failure cannot succeed");
                    assertEquals(f.engine.status(id).partitions().size(), result.proofs().size());
                }
                case FAILED -> assertTrue(result.failure().isPresent());
                case CANCELLED -> assertTrue(result.proofs().isEmpty());
                default -> throw new AssertionError("not terminal: " + result.state());
            }
        }
        assertTrue(submitted.size() + refused > OPERATIONS / 3);
        f.assertAllReleased();
    }

    /**
     * A partition's plan travels in its input bytes (so the prover can read it without a race with submit):
     * [0] failure stage index, [1] device fault on gpu0, [2..5] delays in tens of microseconds per stage.
     */
    private static JobRequest randomJob(Random random) {
        JobRequest.Builder b = JobRequest.builder(EngineFixture.CIRCUIT)
                .priority(Priority.values()[random.nextInt(Priority.values().length)])
                .verify(random.nextBoolean());
        if (random.nextInt(10) == 0) {
            b.deadline(Duration.ofMillis(1 + random.nextInt(30)));
        }
        int partitions = 1 + random.nextInt(4);
        for (int i = 0; i < partitions; i++) {
            byte[] plan = new byte[6];
            plan[0] = (byte) (random.nextInt(12) == 0 ? 1 + random.nextInt(FAIL_AT.length - 1) : 0);
            plan[1] = (byte) (random.nextInt(6) == 0 ? 1 : 0);
            for (int s = 2; s < plan.length; s++) {
                plan[s] = (byte) random.nextInt(30);
            }
            b.partition(PartitionInput.wtns(plan));
        }
        return b.build();
    }

    /** A planned failure strikes unless it is planned for verification and the job skips it. */
    private static boolean reachable(Stage failAt, boolean verified) {
        return failAt != null && (failAt != Stage.VERIFYING || verified);
    }

    private static void installPlans(FakeProver prover) {
        prover.onSynthesize = (work, device) -> step(work, Stage.SYNTHESIZING, 2);
        prover.onProveStart = (work, device) -> {
            if (work.input().bytes()[1] == 1 && device.id().equals("gpu0")) {
                throw new DeviceFaultException("injected fault");
            }
            step(work, Stage.PROVING, 3);
        };
        prover.onProveFinish = (work, device) -> step(work, Stage.FINALIZING, 4);
        prover.onVerify = (work, device) -> step(work, Stage.VERIFYING, 5);
    }

    private static void step(PartitionWork work, Stage stage, int delayIndex) throws InterruptedException {
        byte[] plan = work.input().bytes();
        Thread.sleep(0, plan[delayIndex] * 10_000);
        if (FAIL_AT[plan[0]] == stage) {
            throw new IllegalStateException("injected failure in " + stage);
        }
    }

    /** Circuits of different sizes: partitions of 11, 22 and 44 KiB, keys of 1 to 3 partitions' worth. */
    private static final CircuitRef[] CIRCUITS = {
            new CircuitRef("small", 32, 64, 1), new CircuitRef("medium", 64, 128, 1),
            new CircuitRef("large", 128, 256, 1), new CircuitRef("other-small", 32, 64, 1)};
    private static final long PARTITION = EngineFixture.PARTITION_BYTES;
    /** Room for two or three keys and a few partitions: keys must give way for work to move. */
    private static final long KEYS_BUDGET = 12 * PARTITION;

    private static FakeKeys competingKeys() {
        return new FakeKeys(Map.of("small", PARTITION, "medium", 2 * PARTITION, "large", 3 * PARTITION,
                "other-small", 2 * PARTITION));
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void keysAndPartitionsOfSeveralCircuitsCompeteAndNothingIsLeft(long seed) throws Throwable {
        try {
            runWithKeys(seed);
        } catch (Throwable t) {
            System.err.println("RandomizedScheduleTest (keys) failed with seed " + seed + " (rerun: -Dengine.seed="
                    + seed + ")");
            throw new AssertionError("seed " + seed + ": " + t.getMessage(), t);
        }
    }

    private void runWithKeys(long seed) throws Exception {
        Random random = new Random(seed);
        FakeKeys keys = competingKeys();
        fixture = new EngineFixture(0, b -> b.synthesisWorkers(3).handoffCapacity(2).workersPerDevice(2)
                .finalizerThreads(2).queueCapacity(32), keys, new MemoryBudget(KEYS_BUDGET), "gpu0", "gpu1");
        EngineFixture f = fixture;
        f.tracker.addListener((event, s) -> {
            if (s.budget().reservedBytes() > s.budget().totalBytes()) {
                f.violations.add(event + ": reserved " + s.budget().reservedBytes());
            }
        });
        f.prover.onSynthesize = (work, device) -> {
            try {
                keys.use(work.circuit().id());
            } catch (IOException e) {
                throw new RetryableException("cannot read the key: " + e.getMessage(), e);
            }
            Thread.sleep(0, work.input().bytes()[0] * 10_000);
        };
        // The CPU prover's twiddle tables compete too: prove start takes one of three sizes (8, 16, 32 KiB, beside
        // partitions of 11 KiB) from the engine's cache while it runs, as an NTT does; without room it gets none.
        f.prover.onProveStart = (work, device) -> {
            int log = 9 + work.input().bytes()[1] % 3;
            Optional<TwiddleCache.Lease> table = TwiddleCache.current().acquire(Bn254.FR, log);
            try {
                Thread.sleep(0, work.input().bytes()[1] * 10_000);
            } finally {
                table.ifPresent(TwiddleCache.Lease::close);
            }
        };
        java.util.concurrent.atomic.AtomicInteger tablesMade = new java.util.concurrent.atomic.AtomicInteger();
        f.tracker.addListener((event, s) -> {
            if (event.startsWith("NTT twiddle table") && event.endsWith("made")) {
                tablesMade.incrementAndGet();
            }
            if (s.bytes(BufferClass.TWIDDLES) > s.budget().totalBytes() / 4) {
                f.violations.add(event + ": twiddle tables hold " + s.bytes(BufferClass.TWIDDLES) + " B");
            }
        });

        List<JobId> submitted = new ArrayList<>();
        int refused = 0;
        for (int op = 0; op < OPERATIONS; op++) {
            double dice = random.nextDouble();
            if (dice < 0.55) {
                JobRequest.Builder b = JobRequest.builder(CIRCUITS[random.nextInt(CIRCUITS.length)])
                        .priority(Priority.values()[random.nextInt(Priority.values().length)]).verify(false);
                for (int i = 1 + random.nextInt(3); i > 0; i--) {
                    b.partition(PartitionInput.wtns(new byte[]{(byte) random.nextInt(30), (byte) random.nextInt(30)}));
                }
                try {
                    submitted.add(f.engine.submit(b.build()));
                } catch (QueueFullException full) {
                    refused++;
                }
            } else if (dice < 0.7 && !submitted.isEmpty()) {
                f.engine.cancel(submitted.get(random.nextInt(submitted.size())));
            } else if (dice < 0.75) {
                keys.failingLoads.incrementAndGet();
            } else if (dice < 0.78) {
                keys.failingEvictions.incrementAndGet();
            } else {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(random.nextInt(500)));
            }
        }

        for (JobId id : submitted) {
            JobResult result = f.await(id);
            assertTrue(result.state().isTerminal());
            if (result.state() == JobState.FAILED) {
                Throwable cause = result.failure().orElseThrow().cause();
                assertTrue(cause instanceof RetryableException, () -> "only injected key I/O errors fail: " + cause);
            }
        }
        assertTrue(submitted.size() + refused > OPERATIONS / 3);
        assertTrue(keys.violations.isEmpty(), keys.violations::toString);
        assertEquals(0, keys.uses(), "no key in use once every job ended");
        assertTrue(f.budget.peakReserved() <= f.budget.total());
        assertTrue(f.engine.dispatcherHealth().alive());
        keys.failingEvictions.set(0);
        keys.evictUnused(Long.MAX_VALUE, List.of());
        // cached twiddle tables hold their bytes until pressure or the engine's end, which gives them back
        f.engine.close();
        f.assertAllReleased();
        assertEquals(0, f.engine.snapshot().bytes(BufferClass.TWIDDLES));
        assertTrue(submitted.isEmpty() || tablesMade.get() > 0, "prove starts were granted twiddle tables");
    }

    /**
     * The deadlock of issue #18: both keys plus one partition exceed the budget. With keys pinned before
     * submission both jobs stayed RUNNING forever; admitted together, the idle key of the other circuit gives way.
     */
    @Test
    void twoCircuitsWhoseKeysAndOnePartitionExceedTheBudgetBothFinish() throws Exception {
        CircuitRef a = CIRCUITS[0];
        CircuitRef b = CIRCUITS[3];
        long key = 2 * PARTITION;
        FakeKeys keys = new FakeKeys(Map.of(a.id(), key, b.id(), key));
        fixture = new EngineFixture(0, s -> s, keys, new MemoryBudget(2 * key + PARTITION - 1));
        EngineFixture f = fixture;
        f.prover.onSynthesize = (work, device) -> keys.use(work.circuit().id());
        assertEquals(JobState.DONE, f.await(f.engine.submit(AdmissionTest.job(b, 1))).state());
        assertEquals(List.of(b.id()), keys.resident(), "b's key stays cached, idle");

        JobId first = f.engine.submit(AdmissionTest.job(a, 3));
        JobId second = f.engine.submit(AdmissionTest.job(b, 3));
        assertEquals(JobState.DONE, f.await(first).state());
        assertEquals(JobState.DONE, f.await(second).state());
        assertTrue(keys.evicted.contains(b.id()), "b's idle key made room for a's head: " + keys.evicted);
        assertTrue(keys.violations.isEmpty(), keys.violations::toString);
        assertEquals(0, keys.uses());
        keys.evictUnused(Long.MAX_VALUE, List.of());
        f.assertAllReleased();
    }

    private static void watchInvariants(EngineFixture f) {
        f.tracker.addListener((event, s) -> {
            if (s.budget().reservedBytes() > s.budget().totalBytes()) {
                f.violations.add(event + ": reserved " + s.budget().reservedBytes());
            }
            if (s.count(BufferClass.ABC) > PARTITIONS_IN_BUDGET) {
                f.violations.add(event + ": " + s.count(BufferClass.ABC) + " partitions hold ABC");
            }
        });
    }
}
