package io.proofline.engine.groth16;

import io.proofline.engine.CircuitRef;
import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.ProvingEngine;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.verifier.Groth16Verifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several devices, each its own {@code ProverBackend} instance, through the engine with real Groth16 proofs (snarkjs's
 * mul3 on BN254): placement spreads partitions over two logical CPU devices, a device whose backend throws
 * {@link DeviceFaultException} has its breaker opened and its partition proved elsewhere, the CPU fallback takes
 * work only when no GPU can, and every proof verifies.
 */
class MultiDeviceGroth16Test {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    private static final Duration WAIT = Duration.ofMinutes(2);

    private static ProvingKey key;
    private static VerifyingKey vk;
    private static byte[] wtns;
    private static CircuitRef circuit;

    @BeforeAll
    static void load() throws Exception {
        key = ZkeyReader.read(MUL3.resolve("circuit.zkey"));
        vk = VerifyingKey.of(key);
        wtns = Files.readAllBytes(MUL3.resolve("witness.wtns"));
        circuit = new CircuitRef("mul3", key.nVars(), key.domainSize(), key.nPublic());
    }

    @AfterAll
    static void close() {
        key.close();
    }

    private static ProvingEngine engine(List<BackendDevice> devices, int workersPerDevice) {
        EngineConfig config = EngineConfig.builder().budgetBytes(64L << 20).synthesisWorkers(2)
                .workersPerDevice(workersPerDevice).breakerMinimumCalls(1).deviceRetryAfter(Duration.ofMinutes(5))
                .verifyProofs(true).build();
        return ProvingEngine.builder(config, new Groth16PartitionProver(new SingleCircuit("mul3", key), devices))
                .devices(devices).start();
    }

    private static JobRequest job(int partitions) {
        JobRequest.Builder b = JobRequest.builder(circuit).verify(true);
        for (int i = 0; i < partitions; i++) {
            b.partition(PartitionInput.wtns(wtns));
        }
        return b.build();
    }

    private static JobResult awaitDone(ProvingEngine engine, JobId id) throws Exception {
        JobResult result = engine.await(id, WAIT);
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        for (ProofOutput proof : result.proofs()) {
            assertTrue(Groth16Verifier.verify(vk, PublicSignalsJson.parse(proof.publicSignalsJson(), "public"),
                    ProofJson.parse(proof.proofJson(), "proof")).valid(), "proof verifies");
        }
        return result;
    }

    private static Set<String> devicesUsed(ProvingEngine engine, JobId id) {
        return engine.status(id).partitions().stream().map(PartitionStatus::device).collect(Collectors.toSet());
    }

    private static DeviceFigures figures(PipelineSnapshot snapshot, String id) {
        return snapshot.devices().stream().filter(d -> d.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void concurrentPartitionsSpreadOverTwoLogicalCpuDevicesAndTheSnapshotShowsBoth() throws Exception {
        ScriptedBackend cpu0 = new ScriptedBackend("cpu");
        ScriptedBackend cpu1 = new ScriptedBackend("cpu");
        Semaphore arrivals = new Semaphore(0);
        CountDownLatch open = new CountDownLatch(1);
        ScriptedBackend.Hook hold = () -> {
            arrivals.release();
            open.await(1, TimeUnit.MINUTES);
        };
        cpu0.beforeStart = hold;
        cpu1.beforeStart = hold;
        List<BackendDevice> devices = List.of(new BackendDevice("cpu0", cpu0, false),
                new BackendDevice("cpu1", cpu1, false));
        try (ProvingEngine engine = engine(devices, 1)) {
            JobId id = engine.submit(job(4));
            assertTrue(arrivals.tryAcquire(2, 1, TimeUnit.MINUTES), "two prove starts at once");
            PipelineSnapshot busy = engine.snapshot();
            assertEquals(List.of("cpu0", "cpu1"), busy.devices().stream().map(DeviceFigures::id).toList());
            assertEquals(1, figures(busy, "cpu0").busyWorkers(), busy::toLogLine);
            assertEquals(1, figures(busy, "cpu1").busyWorkers(), busy::toLogLine);
            open.countDown();
            awaitDone(engine, id);
            assertEquals(Set.of("cpu0", "cpu1"), devicesUsed(engine, id));
            assertEquals(4, cpu0.started.size() + cpu1.started.size());
            assertTrue(cpu0.finishedForeign.isEmpty() && cpu1.finishedForeign.isEmpty(),
                    "each proof finished by the backend that started it");
        }
    }

    @Test
    void aBackendFaultOpensThatDevicesBreakerAndThePartitionCompletesOnTheOtherDevice() throws Exception {
        ScriptedBackend gpu0 = new ScriptedBackend("gpu");
        ScriptedBackend gpu1 = new ScriptedBackend("gpu");
        ScriptedBackend cpu = new ScriptedBackend("cpu");
        AtomicInteger faults = new AtomicInteger();
        gpu0.beforeStart = () -> {
            faults.incrementAndGet();
            throw new DeviceFaultException("GPU 0 (gpu0): CUDA_ERROR_ILLEGAL_ADDRESS", null);
        };
        List<BackendDevice> devices = List.of(new BackendDevice("gpu0", gpu0, false),
                new BackendDevice("gpu1", gpu1, false), new BackendDevice("cpu", cpu, true));
        try (ProvingEngine engine = engine(devices, 1)) {
            JobId id = engine.submit(job(3));
            JobResult result = awaitDone(engine, id);
            assertEquals(3, result.proofs().size());
            assertEquals(Set.of("gpu1"), devicesUsed(engine, id));
            assertEquals(1, faults.get(), "the breaker opened at the first fault and kept gpu0 out");
            PipelineSnapshot after = engine.snapshot();
            assertEquals("OPEN", figures(after, "gpu0").breakerState());
            assertEquals("CLOSED", figures(after, "gpu1").breakerState());
            assertTrue(cpu.started.isEmpty(), "the CPU fallback was not needed");
            assertTrue(gpu1.finishedForeign.isEmpty());
        }
    }

    @Test
    void whenEveryGpuFaultsTheCpuFallbackProvesAndTheProofsVerify() throws Exception {
        ScriptedBackend gpu0 = new ScriptedBackend("gpu");
        ScriptedBackend gpu1 = new ScriptedBackend("gpu");
        ScriptedBackend cpu = new ScriptedBackend("cpu");
        ScriptedBackend.Hook fault = () -> {
            throw new DeviceFaultException("CUDA_ERROR_LAUNCH_FAILED", null);
        };
        gpu0.beforeStart = fault;
        gpu1.beforeStart = fault;
        List<BackendDevice> devices = List.of(new BackendDevice("gpu0", gpu0, false),
                new BackendDevice("gpu1", gpu1, false), new BackendDevice("cpu", cpu, true));
        try (ProvingEngine engine = engine(devices, 1)) {
            JobId id = engine.submit(job(2));
            awaitDone(engine, id);
            assertEquals(Set.of("cpu"), devicesUsed(engine, id));
            PipelineSnapshot after = engine.snapshot();
            assertEquals("OPEN", figures(after, "gpu0").breakerState());
            assertEquals("OPEN", figures(after, "gpu1").breakerState());
            assertEquals(2, cpu.started.size());
        }
    }

    @Test
    void aProofStartedOnOneDeviceIsNotFinishedOnAnother() throws Exception {
        ScriptedBackend b0 = new ScriptedBackend("gpu");
        ScriptedBackend b1 = new ScriptedBackend("gpu");
        BackendDevice gpu0 = new BackendDevice("gpu0", b0, false);
        BackendDevice gpu1 = new BackendDevice("gpu1", b1, false);
        Groth16PartitionProver prover = new Groth16PartitionProver(new SingleCircuit("mul3", key), List.of(gpu0, gpu1));
        try (var witness = io.proofline.snark.format.WtnsReader.read(MUL3.resolve("witness.wtns"));
             var arena = java.lang.foreign.Arena.ofShared()) {
            var abc = io.proofline.snark.prover.Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8));
            StartedProof started = prover.proveStart(gpu0, new SynthesizedPartition(key, witness, abc), null);
            assertEquals("gpu0", started.deviceId());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> prover.proveFinish(gpu1, started));
            assertTrue(e.getMessage().contains("gpu0") && e.getMessage().contains("gpu1"), e.getMessage());
            assertTrue(b1.finishedForeign.isEmpty(), "gpu1's backend never saw the pending proof");
            ProofOutput proof = prover.proveFinish(gpu0, started);
            assertTrue(prover.verify(circuit, proof));
        }
    }
}
