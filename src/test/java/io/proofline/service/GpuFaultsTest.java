package io.proofline.service;

import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.KeyCache;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.device.DeviceRoomTimeoutException;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.QueueDepths;
import io.proofline.engine.RetryableException;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.witness.CalculatorOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GPU fault model through the engine, with real Groth16 proofs (snarkjs's mul3) and the service's key cache, the
 * GPU backend port played by {@link FaultyGpuBackend}: a device whose lazy open fails opens its breaker at once; a
 * sticky fault opens it and the device is reopened before its half-open trial; running out of device memory or a
 * key over the device's key budget is no fault (the breaker stays closed) and the partition goes where it fits or
 * waits for room, at most the admission wait, then ends retryably; a partition cancelled while its device was being
 * readied starts no prove; and the key cache frees a key's device copy when the circuit is deleted or its key is
 * reloaded.
 */
class GpuFaultsTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    private static final String CIRCUIT = "f".repeat(64);
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static CircuitRef circuit;
    private static byte[] wtns;

    @TempDir
    Path dir;
    private KeyCache keys;
    private ProvingEngine engine;

    @BeforeAll
    static void circuitShape() throws IOException {
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve("circuit.zkey"))) {
            circuit = new CircuitRef(CIRCUIT, key.nVars(), key.domainSize(), key.nPublic());
        }
        wtns = Files.readAllBytes(MUL3.resolve("witness.wtns"));
    }

    @BeforeEach
    void registerCircuit() throws IOException {
        Path c = Files.createDirectories(new DataDirectory(dir).circuit(CIRCUIT));
        Files.copy(MUL3.resolve("circuit.zkey"), c.resolve(CircuitService.ZKEY));
        Files.copy(MUL3.resolve("verification_key.json"), c.resolve(CircuitService.VKEY));
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

    /** The engine over {@code devices} (id → backend; an id starting with "cpu" is the fallback). */
    private ProvingEngine start(Map<String, ProverBackend> devices, UnaryOperator<EngineConfig.Builder> settings) {
        MemoryBudget budget = new MemoryBudget(256L << 20);
        BufferTracker tracker = new BufferTracker();
        keys = new KeyCache(new DataDirectory(dir), budget, tracker, Duration.ofHours(1), CalculatorOptions.defaults(),
                devices.values().stream().filter(b -> b instanceof DeviceProverBackend)
                        .map(DeviceProverBackend.class::cast).toList());
        List<BackendDevice> list = devices.entrySet().stream()
                .map(e -> new BackendDevice(e.getKey(), e.getValue(), e.getKey().startsWith("cpu"))).toList();
        EngineConfig config = settings.apply(EngineConfig.builder().budgetBytes(budget.total()).synthesisWorkers(1)
                .finalizerThreads(1).workersPerDevice(1).breakerMinimumCalls(3)
                .deviceRetryAfter(Duration.ofMinutes(5)).verifyProofs(true)).build();
        engine = ProvingEngine.builder(config, new Groth16PartitionProver(keys, devices)).budget(budget)
                .tracker(tracker).keys(keys).devices(list).start();
        return engine;
    }

    private static Map<String, ProverBackend> devices(Object... idsAndBackends) {
        Map<String, ProverBackend> map = new LinkedHashMap<>();
        for (int i = 0; i < idsAndBackends.length; i += 2) {
            map.put((String) idsAndBackends[i], (ProverBackend) idsAndBackends[i + 1]);
        }
        return map;
    }

    private static JobRequest job() {
        return JobRequest.builder(circuit).verify(true).partition(PartitionInput.wtns(wtns)).build();
    }

    private JobResult run() throws Exception {
        return engine.await(engine.submit(job()), WAIT);
    }

    private JobResult runDone() throws Exception {
        JobResult result = run();
        assertThat(result.state()).as(() -> String.valueOf(result.failure())).isEqualTo(JobState.DONE);
        return result;
    }

    private Set<String> devicesUsed(JobResult result) {
        return engine.status(result.id()).partitions().stream().map(PartitionStatus::device)
                .collect(Collectors.toSet());
    }

    private String breaker(String device) {
        return engine.snapshot().devices().stream().filter(d -> d.id().equals(device)).findFirst()
                .map(DeviceFigures::breakerState).orElseThrow();
    }

    private void assertNothingInFlight() {
        QueueDepths q = engine.snapshot().queues();
        assertThat(q.queued() + q.synthesizing() + q.awaitingDevice() + q.proving() + q.finalizing()).isZero();
        assertThat(engine.snapshot().devices()).allMatch(d -> d.busyWorkers() == 0);
    }

    @Test
    void aDeviceWhoseLazyOpenFailsOpensItsBreakerAtOnceAndTheWorkGoesElsewhere() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        gpu.failingOpens.set(100);
        start(devices("gpu0", gpu, "cpu", new CpuProverBackend()), b -> b);
        for (int i = 0; i < 3; i++) {
            JobResult result = runDone();
            assertThat(devicesUsed(result)).containsExactly("cpu");
        }
        // One failed open, not one per job: three device faults would be needed to open a breaker on a failure
        // rate (breakerMinimumCalls 3), and the idle device would have been placed first every time.
        assertThat(gpu.events).containsExactly("open failed");
        assertThat(breaker("gpu0")).isEqualTo("OPEN");
        assertNothingInFlight();
    }

    @Test
    void aStickyFaultOpensTheBreakerAndTheDeviceIsReopenedBeforeItsHalfOpenTrial() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        gpu.stickyStarts.set(1);
        start(devices("gpu0", gpu, "cpu", new CpuProverBackend()), b -> b.deviceRetryAfter(Duration.ofMillis(300)));
        JobResult first = runDone();
        assertThat(devicesUsed(first)).containsExactly("cpu");
        assertThat(breaker("gpu0")).isEqualTo("OPEN");
        Thread.sleep(500);
        // The double stays broken until reopened: a trial without the reopen would fault again.
        JobResult second = runDone();
        assertThat(devicesUsed(second)).containsExactly("gpu0");
        assertThat(gpu.events).containsExactly("opened", "sticky fault", "reopen", "opened", "proved");
        assertThat(breaker("gpu0")).isEqualTo("CLOSED");
        JobResult third = runDone();
        assertThat(devicesUsed(third)).containsExactly("gpu0");
        assertThat(gpu.events).filteredOn("reopen"::equals).hasSize(1);
        assertNothingInFlight();
    }

    @Test
    void runningOutOfDeviceMemoryIsNoFaultThePartitionWaitsForRoom() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        gpu.outOfMemoryStarts.set(2);
        // One fault would open the breaker; no fallback to go to.
        start(devices("gpu0", gpu), b -> b.breakerMinimumCalls(1));
        JobResult result = runDone();
        assertThat(devicesUsed(result)).containsExactly("gpu0");
        assertThat(gpu.events).containsExactly("opened", "out of memory", "out of memory", "proved");
        assertThat(breaker("gpu0")).isEqualTo("CLOSED");
        assertNothingInFlight();
    }

    @Test
    void aPartitionRefusedForRoomWaitsForTheBusyGpuWhereItFitsRatherThanTakeTheFallback() throws Exception {
        FaultyGpuBackend full = new FaultyGpuBackend();
        full.outOfMemoryStarts.set(Integer.MAX_VALUE);
        FaultyGpuBackend roomy = new FaultyGpuBackend();
        CountDownLatch roomyBusy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        roomy.beforeStart = () -> {
            roomyBusy.countDown();
            release.await(1, TimeUnit.MINUTES);
        };
        start(devices("gpu0", full, "gpu1", roomy, "cpu", new CpuProverBackend()), b -> b.breakerMinimumCalls(1));
        JobId held = engine.submit(job());
        assertThat(roomyBusy.await(1, TimeUnit.MINUTES)).isTrue();
        // gpu0 has no room and gpu1, where it fits, is busy: the partition waits for gpu1 (a GPU proof started
        // later still ends sooner than a CPU one started now), as it would for any busy GPU.
        JobId waiting = engine.submit(job());
        Thread.sleep(1500);
        assertThat(engine.status(waiting).state()).isNotEqualTo(JobState.DONE);
        release.countDown();
        assertThat(engine.await(held, WAIT).state()).isEqualTo(JobState.DONE);
        JobResult result = engine.await(waiting, WAIT);
        assertThat(result.state()).isEqualTo(JobState.DONE);
        assertThat(devicesUsed(result)).containsExactly("gpu1");
        assertThat(full.events).contains("out of memory");
        assertThat(breaker("gpu0")).isEqualTo("CLOSED");
        assertNothingInFlight();
    }

    @Test
    void aPartitionWithoutRoomOnTheOnlyGpuGoesToTheFallbackWhereItFits() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        gpu.outOfMemoryStarts.set(Integer.MAX_VALUE);
        start(devices("gpu0", gpu, "cpu", new CpuProverBackend()), b -> b.breakerMinimumCalls(1));
        assertThat(devicesUsed(runDone())).containsExactly("cpu");
        assertThat(gpu.events).containsExactly("opened", "out of memory");
        assertThat(breaker("gpu0")).isEqualTo("CLOSED");
        assertNothingInFlight();
    }

    @Test
    void aKeyOverTheDevicesKeyBudgetNeverFitsThereAndGoesToTheFallbackWithoutAFault() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        gpu.keyBudgetBytes = 1024;
        start(devices("gpu0", gpu, "cpu", new CpuProverBackend()), b -> b.breakerMinimumCalls(1));
        for (int i = 0; i < 2; i++) {
            assertThat(devicesUsed(runDone())).containsExactly("cpu");
        }
        assertThat(gpu.events).containsExactly("opened", "key over budget", "key over budget");
        assertThat(breaker("gpu0")).isEqualTo("CLOSED");
        assertNothingInFlight();
    }

    @Test
    void waitingForRoomPastTheAdmissionWaitEndsTheJobRetryably() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        gpu.outOfMemoryStarts.set(Integer.MAX_VALUE);
        start(devices("gpu0", gpu), b -> b.breakerMinimumCalls(1).admissionWait(Duration.ofSeconds(2)));
        JobResult result = run();
        assertThat(result.state()).isEqualTo(JobState.FAILED);
        Throwable cause = result.failure().orElseThrow().cause();
        assertThat(cause).isInstanceOf(DeviceRoomTimeoutException.class).isInstanceOf(RetryableException.class);
        assertThat(cause.getCause()).hasMessageContaining("CUDA_ERROR_OUT_OF_MEMORY");
        assertThat(breaker("gpu0")).isEqualTo("CLOSED");
        assertThat(gpu.proofsStarted).hasValue(0);
        assertNothingInFlight();
    }

    @Test
    void aPartitionCancelledWhileItsDeviceIsReopenedStartsNoProve() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        gpu.stickyStarts.set(1);
        start(devices("gpu0", gpu, "cpu", new CpuProverBackend()), b -> b.deviceRetryAfter(Duration.ofMillis(300)));
        runDone();
        Thread.sleep(500);
        CountDownLatch reopening = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // A slow context rebuild that an interrupt does not cut short.
        gpu.onReopen = () -> {
            reopening.countDown();
            awaitUninterruptibly(release);
        };
        JobId id = engine.submit(job());
        assertThat(reopening.await(1, TimeUnit.MINUTES)).isTrue();
        assertThat(engine.cancel(id)).isTrue();
        release.countDown();
        assertThat(engine.await(id, WAIT).state()).isEqualTo(JobState.CANCELLED);
        assertThat(gpu.proofsStarted).hasValue(0);
        assertThat(gpu.events).containsExactly("opened", "sticky fault", "reopen", "opened");
        assertNothingInFlight();
    }

    @Test
    void theKeyCacheFreesAKeysDeviceCopyWhenItsCircuitIsDeletedOrItsKeyReloaded() throws Exception {
        FaultyGpuBackend gpu = new FaultyGpuBackend();
        start(devices("gpu0", gpu), b -> b);
        runDone();
        assertThat(gpu.residentKeys()).isEqualTo(1);
        // Evicted from host memory (as the idle timeout or memory pressure would) and reloaded by the next job:
        // the new key object gets its own device copy, the old one's is freed rather than left behind.
        assertThat(keys.evict(CIRCUIT)).isTrue();
        assertThat(gpu.residentKeys()).isZero();
        runDone();
        assertThat(gpu.residentKeys()).isEqualTo(1);
        keys.forget(CIRCUIT);
        assertThat(gpu.residentKeys()).isZero();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
