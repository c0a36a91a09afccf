package io.proofline.engine.groth16;

import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.ProvingEngine;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CircomWitnessCalculator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The adapter drives the CPU prover through the engine; proofs verify against snarkjs's verification key. */
class Groth16PartitionProverTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void provesWtnsPartitionsThatSnarkjsKeyAccepts(String curve) throws Exception {
        Path dir = MUL3.resolve(curve);
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"))) {
            PreparedVerifyingKey vk = PreparedVerifyingKey.prepare(
                    VerificationKeyJson.read(dir.resolve("verification_key.json")));
            Groth16Circuits circuits = new Groth16Circuits() {
                public ProvingKey provingKey(String id) { return key; }
                public PreparedVerifyingKey verifyingKey(String id) { return vk; }
                public Optional<CircomWitnessCalculator> witnessCalculator(String id) { return Optional.empty(); }
                public Optional<R1cs> r1cs(String id) { return Optional.empty(); }
            };
            var prover = new Groth16PartitionProver(circuits, Map.of(CpuDevice.ID, new CpuProverBackend()));
            EngineConfig config = EngineConfig.builder().budgetBytes(64L << 20).synthesisWorkers(1).build();
            try (ProvingEngine engine = ProvingEngine.builder(config, prover).devices(List.of(new CpuDevice())).start()) {
                CircuitRef ref = new CircuitRef("mul3", key.nVars(), key.domainSize(), key.nPublic());
                byte[] wtns = Files.readAllBytes(dir.resolve("witness.wtns"));
                JobId id = engine.submit(JobRequest.builder(ref).partition(PartitionInput.wtns(wtns))
                        .partition(PartitionInput.wtns(wtns)).verify(true).build());
                JobResult result = engine.await(id, Duration.ofMinutes(2));
                assertEquals(JobState.DONE, result.state(), () -> result.failure().map(f -> f.message()).orElse(""));
                assertEquals(2, result.proofs().size());
                for (ProofOutput proof : result.proofs()) {
                    assertTrue(Groth16Verifier.verify(vk.vk(), PublicSignalsJson.parse(proof.publicSignalsJson(), "p"),
                            ProofJson.parse(proof.proofJson(), "p")).valid());
                }
                assertEquals(0, engine.snapshot().process().offHeapBytes(), "all tracked buffers freed");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128"})
    void witnessOfAnotherCurveFailsThePartition(String curve) throws Exception {
        Path dir = MUL3.resolve(curve);
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"))) {
            Groth16Circuits circuits = new Groth16Circuits() {
                public ProvingKey provingKey(String id) { return key; }
                public PreparedVerifyingKey verifyingKey(String id) { throw new AssertionError(); }
                public Optional<CircomWitnessCalculator> witnessCalculator(String id) { return Optional.empty(); }
                public Optional<R1cs> r1cs(String id) { return Optional.empty(); }
            };
            var prover = new Groth16PartitionProver(circuits, Map.of(CpuDevice.ID, new CpuProverBackend()));
            EngineConfig config = EngineConfig.builder().budgetBytes(64L << 20).synthesisWorkers(1).build();
            try (ProvingEngine engine = ProvingEngine.builder(config, prover).devices(List.of(new CpuDevice())).start()) {
                CircuitRef ref = new CircuitRef("mul3", key.nVars(), key.domainSize(), key.nPublic());
                byte[] other = Files.readAllBytes(MUL3.resolve("bls12381/witness.wtns"));
                JobId id = engine.submit(JobRequest.builder(ref).partition(PartitionInput.wtns(other)).build());
                JobResult result = engine.await(id, Duration.ofMinutes(1));
                assertEquals(JobState.FAILED, result.state());
                assertTrue(result.failure().orElseThrow().cause() instanceof WitnessRejectedException,
                        () -> result.failure().toString());
            }
        }
    }

    /**
     * A stored input (the service's) is read when its partition is synthesized, mapped rather than read onto the
     * heap, and counted as nothing in memory while queued: a job proves from stored witness files, and a file
     * removed after submission fails its partition then (not at submission).
     */
    @org.junit.jupiter.api.Test
    void storedInputsAreReadWhenTheirPartitionIsSynthesized(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        Path dir = MUL3.resolve("bn128");
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"))) {
            PreparedVerifyingKey vk = PreparedVerifyingKey.prepare(
                    VerificationKeyJson.read(dir.resolve("verification_key.json")));
            Groth16Circuits circuits = new Groth16Circuits() {
                public ProvingKey provingKey(String id) { return key; }
                public PreparedVerifyingKey verifyingKey(String id) { return vk; }
                public Optional<CircomWitnessCalculator> witnessCalculator(String id) { return Optional.empty(); }
                public Optional<R1cs> r1cs(String id) { return Optional.empty(); }
            };
            var prover = new Groth16PartitionProver(circuits, Map.of(CpuDevice.ID, new CpuProverBackend()));
            EngineConfig config = EngineConfig.builder().budgetBytes(64L << 20).synthesisWorkers(1).build();
            try (ProvingEngine engine = ProvingEngine.builder(config, prover).devices(List.of(new CpuDevice())).start()) {
                CircuitRef ref = new CircuitRef("mul3", key.nVars(), key.domainSize(), key.nPublic());
                Path kept = Files.copy(dir.resolve("witness.wtns"), tmp.resolve("kept.wtns"));
                PartitionInput stored = PartitionInput.stored(PartitionInput.Format.WTNS, kept, Files.size(kept));
                assertEquals(0, stored.heapBytes(), "a stored input holds nothing in memory");
                JobResult done = engine.await(engine.submit(JobRequest.builder(ref).partition(stored)
                        .partition(stored).verify(true).build()), Duration.ofMinutes(2));
                assertEquals(JobState.DONE, done.state(), () -> done.failure().map(f -> f.message()).orElse(""));
                assertEquals(2, done.proofs().size());

                Path removed = Files.copy(dir.resolve("witness.wtns"), tmp.resolve("removed.wtns"));
                PartitionInput gone = PartitionInput.stored(PartitionInput.Format.WTNS, removed, Files.size(removed));
                Files.delete(removed);
                JobResult failed = engine.await(engine.submit(JobRequest.builder(ref).partition(gone).build()),
                        Duration.ofMinutes(1));
                assertEquals(JobState.FAILED, failed.state());
                assertTrue(failed.failure().orElseThrow().cause() instanceof java.nio.file.NoSuchFileException,
                        () -> failed.failure().toString());
                assertEquals(0, engine.snapshot().process().offHeapBytes(), "all tracked buffers freed");
            }
        }
    }
}
