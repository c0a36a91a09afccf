package io.proofline.service;

import io.proofline.service.circuits.CircuitService;
import io.proofline.service.jobs.JobRunner;
import io.proofline.service.circuits.KeyCache;
import io.proofline.service.circuits.KeyCacheTest;

import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.Priority;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.QueueFullException;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.witness.CalculatorOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random schedules through the real pieces the fakes of {@code RandomizedScheduleTest} stand for (issue #33):
 * the service's {@link KeyCache} over a budget that holds two of the three circuits' keys beside a few partitions (so
 * keys are loaded, evicted and reloaded), two GPU-like devices that evaluate a/b/c themselves and fault at random
 * (sticky faults: the breaker opens, the device is reset before its trial), a slow step now and then past the step
 * timeout, and the CPU fallback, which needs the a/b/c evaluated late in prove start — real Groth16 proofs of mul3,
 * verified. Submissions, cancellations and priorities are random. Afterwards every job has ended, every DONE proof
 * verifies, no job FAILED but for every device being out (which the service retries: nothing here is a job's fault),
 * reserved bytes never exceeded the budget, and once the keys are evicted nothing is reserved or allocated. Rerun one seed with {@code -Dengine.seed=N}.
 */
class KeyCacheScheduleTest {

    private static final Path MUL3 = KeyCacheTest.MUL3.resolve("bn128");
    private static final List<String> CIRCUITS = List.of("a".repeat(64), "b".repeat(64), "c".repeat(64));
    private static final int OPERATIONS = 60;

    @TempDir
    Path dir;
    private KeyCache keys;
    private ProvingEngine engine;

    static LongStream seeds() {
        String one = System.getProperty("engine.seed");
        return one != null ? LongStream.of(Long.parseLong(one)) : LongStream.of(11, 22, 33);
    }

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.close();
        }
        if (keys != null) {
            keys.close();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomSchedulesOverTheRealKeyCacheAndTheLateAbcFallbackEndWithNothingLeft(long seed) throws Exception {
        Random random = new Random(seed);
        DataDirectory data = new DataDirectory(dir);
        for (String id : CIRCUITS) {
            Path circuit = Files.createDirectories(data.circuit(id));
            Files.copy(MUL3.resolve("circuit.zkey"), circuit.resolve(CircuitService.ZKEY));
            Files.copy(MUL3.resolve("verification_key.json"), circuit.resolve(CircuitService.VKEY));
        }
        CircuitRef[] refs;
        VerifyingKey vk;
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve("circuit.zkey"))) {
            refs = CIRCUITS.stream().map(id -> new CircuitRef(id, key.nVars(), key.domainSize(), key.nPublic()))
                    .toArray(CircuitRef[]::new);
            vk = VerifyingKey.of(key);
        }
        long keyBytes = Files.size(MUL3.resolve("circuit.zkey"));
        long partition = PartitionFootprint.groth16(refs[0]).total();
        MemoryBudget budget = new MemoryBudget(2 * keyBytes + 4 * partition);
        BufferTracker tracker = new BufferTracker();
        List<String> violations = new CopyOnWriteArrayList<>();
        tracker.addListener((event, s) -> {
            if (s.budget().reservedBytes() > s.budget().totalBytes()) {
                violations.add(event + ": reserved " + s.budget().reservedBytes());
            }
        });

        FaultyGpuBackend gpu0 = new FaultyGpuBackend(true);
        FaultyGpuBackend gpu1 = new FaultyGpuBackend(true);
        AtomicInteger starts = new AtomicInteger();
        for (FaultyGpuBackend gpu : List.of(gpu0, gpu1)) {
            gpu.beforeStart = () -> {
                if (starts.incrementAndGet() % 6 == 0) {
                    Thread.sleep(250); // past the step timeout: the partition moves on, this call goes on
                }
            };
        }
        Map<String, ProverBackend> backends = new LinkedHashMap<>();
        backends.put("gpu0", gpu0);
        backends.put("gpu1", gpu1);
        backends.put("cpu", new CpuProverBackend());
        keys = new KeyCache(data, budget, tracker, Duration.ofHours(1), CalculatorOptions.defaults(),
                List.of(gpu0, gpu1));
        List<BackendDevice> devices = List.of(new BackendDevice("gpu0", gpu0, false),
                new BackendDevice("gpu1", gpu1, false), new BackendDevice("cpu", backends.get("cpu"), true));
        Groth16PartitionProver prover = new Groth16PartitionProver(keys, backends);
        assertThat(prover.lateAbcBytes(devices.get(2), refs[0])).as("the fallback needs a/b/c late").isPositive();
        EngineConfig config = EngineConfig.builder().budgetBytes(budget.total()).synthesisWorkers(2)
                .finalizerThreads(2).workersPerDevice(1).queueCapacity(24).breakerMinimumCalls(2)
                .deviceRetryAfter(Duration.ofMillis(50)).stepTimeout(Duration.ofMillis(150)).verifyProofs(true)
                .build();
        engine = ProvingEngine.builder(config, prover).budget(budget).tracker(tracker).keys(keys).devices(devices)
                .start();

        List<JobId> submitted = new ArrayList<>();
        for (int op = 0; op < OPERATIONS; op++) {
            double dice = random.nextDouble();
            if (dice < 0.55) {
                JobRequest.Builder b = JobRequest.builder(refs[random.nextInt(refs.length)])
                        .priority(Priority.values()[random.nextInt(Priority.values().length)]);
                for (int i = 1 + random.nextInt(3); i > 0; i--) {
                    b.partition(PartitionInput.wtns(Files.readAllBytes(MUL3.resolve("witness.wtns"))));
                }
                try {
                    submitted.add(engine.submit(b.build()));
                } catch (QueueFullException full) {
                    // refused whole: nothing of it stays
                }
            } else if (dice < 0.65 && !submitted.isEmpty()) {
                engine.cancel(submitted.get(random.nextInt(submitted.size())));
            } else if (dice < 0.8) {
                (random.nextBoolean() ? gpu0 : gpu1).stickyStarts.incrementAndGet();
            } else {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(20)));
            }
        }

        int done = 0;
        int onTheFallback = 0;
        for (JobId id : submitted) {
            JobResult result = engine.await(id, Duration.ofMinutes(2));
            if (result.state() == JobState.FAILED) {
                // every device out for this partition (faulted on it, or its breaker open): the service runs the
                // job again later; nothing else may fail one
                assertThat(JobRunner.retryable(result.failure().orElseThrow().cause())).as(id + ": " + result.failure())
                        .isPresent();
                continue;
            }
            assertThat(result.state()).as(id + ": " + result.failure()).isIn(JobState.DONE, JobState.CANCELLED);
            if (result.state() == JobState.DONE) {
                done++;
                onTheFallback += (int) engine.status(id).partitions().stream()
                        .filter(p -> p.device().equals("cpu")).count();
                for (ProofOutput proof : result.proofs()) {
                    assertThat(Groth16Verifier.verify(vk, PublicSignalsJson.parse(proof.publicSignalsJson(), "p"),
                            ProofJson.parse(proof.proofJson(), "p")).valid()).isTrue();
                }
            }
        }
        assertThat(done).as("jobs done").isPositive();
        assertThat(onTheFallback).as("partitions proved on the CPU fallback, a/b/c evaluated late").isPositive();
        assertThat(engine.stepOverruns()).as("steps past the step timeout").isPositive();
        assertThat(violations).isEmpty();
        assertThat(budget.peakReserved()).isLessThanOrEqualTo(budget.total());
        assertThat(keys.cached()).allSatisfy(k -> assertThat(k.pins()).as("no key in use").isZero());
        keys.evictUnused(Long.MAX_VALUE, List.of());
        awaitNothingHeld(budget, tracker);
    }

    /** Steps the watchdog left behind return by themselves; then nothing is reserved or allocated. */
    private static void awaitNothingHeld(MemoryBudget budget, BufferTracker tracker) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (budget.reserved() > 0 || tracker.snapshot().totalCount() > 0) {
            if (System.nanoTime() > end) {
                throw new AssertionError("left: " + tracker.snapshot().toLogLine());
            }
            Thread.sleep(10);
        }
        assertThat(tracker.snapshot().bytes(BufferClass.ABC)).isZero();
    }
}
