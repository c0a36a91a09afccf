package io.proofline.engine.groth16;

import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionInput;
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
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * a/b/c evaluated by the device's backend ({@code abcOnDevice}): partitions leave them out of synthesis and of their
 * reservation, and a partition that falls back to the CPU backend has them evaluated in prove start with bytes reserved
 * then and returned afterwards — real Groth16 proofs of snarkjs's mul3 (BN254), verified.
 */
class AbcOnDeviceGroth16Test {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

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

    private static ProvingEngine engine(Groth16PartitionProver prover, List<BackendDevice> devices) {
        EngineConfig config = EngineConfig.builder().budgetBytes(64L << 20).synthesisWorkers(2).workersPerDevice(1)
                .breakerMinimumCalls(1).deviceRetryAfter(Duration.ofMinutes(5)).verifyProofs(true).build();
        return ProvingEngine.builder(config, prover).devices(devices).start();
    }

    private static JobId submit(ProvingEngine engine, int partitions) {
        JobRequest.Builder b = JobRequest.builder(circuit).verify(true);
        for (int i = 0; i < partitions; i++) {
            b.partition(PartitionInput.wtns(wtns));
        }
        return engine.submit(b.build());
    }

    private static void awaitVerified(ProvingEngine engine, JobId id, int proofs) throws Exception {
        JobResult result = engine.await(id, Duration.ofMinutes(2));
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        assertEquals(proofs, result.proofs().size());
        for (ProofOutput proof : result.proofs()) {
            assertTrue(Groth16Verifier.verify(vk, PublicSignalsJson.parse(proof.publicSignalsJson(), "public"),
                    ProofJson.parse(proof.proofJson(), "proof")).valid(), "proof verifies");
        }
    }

    @Test
    void partitionsForADeviceThatEvaluatesABCHoldNoHostABC() throws Exception {
        ScriptedBackend gpu = new ScriptedBackend("gpu", true);
        ScriptedBackend cpu = new ScriptedBackend("cpu");
        List<BackendDevice> devices = List.of(new BackendDevice("gpu0", gpu, false),
                new BackendDevice("cpu", cpu, true));
        Groth16PartitionProver prover = new Groth16PartitionProver(new SingleCircuit("mul3", key), devices);
        PartitionFootprint full = PartitionFootprint.groth16(circuit);
        assertEquals(new PartitionFootprint(full.witness(), 0, full.pending()), prover.footprint(circuit));
        assertEquals(0, prover.lateAbcBytes(devices.get(0), circuit));
        assertEquals(full.abc(), prover.lateAbcBytes(devices.get(1), circuit));
        List<PipelineSnapshot> duringStart = new CopyOnWriteArrayList<>();
        try (ProvingEngine engine = engine(prover, devices)) {
            gpu.beforeStart = () -> duringStart.add(engine.snapshot());
            awaitVerified(engine, submit(engine, 3), 3);
            assertEquals(3, gpu.started.size());
            assertTrue(cpu.started.isEmpty());
            assertEquals(0, engine.snapshot().budget().reservedBytes());
        }
        assertEquals(3, duringStart.size());
        for (PipelineSnapshot s : duringStart) {
            assertEquals(0, s.bytes(BufferClass.ABC), s::toLogLine);
            assertTrue(s.budget().reservedBytes() <= 3 * (full.witness() + full.pending()), s::toLogLine);
        }
    }

    @Test
    void aPartitionThatFallsBackToTheCpuHasABCEvaluatedAndReservedThenAndReleased() throws Exception {
        ScriptedBackend gpu = new ScriptedBackend("gpu", true);
        ScriptedBackend cpu = new ScriptedBackend("cpu");
        gpu.beforeStart = () -> {
            throw new DeviceFaultException("CUDA_ERROR_LAUNCH_FAILED", null);
        };
        List<BackendDevice> devices = List.of(new BackendDevice("gpu0", gpu, false),
                new BackendDevice("cpu", cpu, true));
        Groth16PartitionProver prover = new Groth16PartitionProver(new SingleCircuit("mul3", key), devices);
        long abcBytes = PartitionFootprint.groth16(circuit).abc();
        List<PipelineSnapshot> duringStart = new CopyOnWriteArrayList<>();
        try (ProvingEngine engine = engine(prover, devices)) {
            cpu.beforeStart = () -> duringStart.add(engine.snapshot());
            awaitVerified(engine, submit(engine, 2), 2);
            assertEquals(2, cpu.started.size());
            PipelineSnapshot after = engine.snapshot();
            assertEquals(0, after.budget().reservedBytes(), after::toLogLine);
            assertEquals(0, after.bytes(BufferClass.ABC), after::toLogLine);
        }
        assertEquals(2, duringStart.size());
        // The other partition's a/b/c may still be held for a moment: they are freed just after its device lease.
        for (PipelineSnapshot s : duringStart) {
            assertTrue(s.bytes(BufferClass.ABC) >= abcBytes, s::toLogLine);
            assertTrue(s.budget().reservedBytes() >= s.bytes(BufferClass.ABC), s::toLogLine);
        }
    }
}
