package io.proofline.engine.groth16;

import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.DeviceCapacityException;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.prover.DeviceFaultKind;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.Witness;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CircomWitnessCalculator;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backend's device failure (a CUDA error, say) reaches the engine as a DeviceFaultException of the kind the backend
 * gave it, named with the engine's device and its cause kept; a capacity refusal reaches it as a
 * DeviceCapacityException, not a fault.
 */
class DeviceFaultNamingTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @Test
    void aBackendFaultInProveStartIsADeviceFault() throws Exception {
        DeviceFaultException fault = new DeviceFaultException("GPU 0: cuLaunchKernel failed",
                new RuntimeException("CUDA_ERROR_ILLEGAL_ADDRESS"));
        ProverBackend failing = new ProverBackend() {
            public String name() { return "failing"; }
            public PendingProof proveStart(ProvingKey k, Witness w, AbcSource abc) { throw fault; }
            public Proof proveFinish(PendingProof p) { throw new AssertionError(); }
        };
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve("circuit.zkey"));
             Witness witness = WtnsReader.read(MUL3.resolve("witness.wtns"));
             Arena arena = Arena.ofShared()) {
            Groth16Circuits circuits = new Groth16Circuits() {
                public ProvingKey provingKey(String id) { return key; }
                public PreparedVerifyingKey verifyingKey(String id) { throw new AssertionError(); }
                public Optional<CircomWitnessCalculator> witnessCalculator(String id) { return Optional.empty(); }
                public Optional<R1cs> r1cs(String id) { return Optional.empty(); }
            };
            var prover = new Groth16PartitionProver(circuits, Map.of("gpu0", failing));
            Synthesized abc = Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8));
            DeviceFaultException e = assertThrows(DeviceFaultException.class, () -> prover.proveStart(
                    new CpuDevice("gpu0"), new SynthesizedPartition(key, witness, abc), null));
            assertSame(fault, e.getCause());
            assertEquals("device gpu0: GPU 0: cuLaunchKernel failed", e.getMessage());
        }
    }

    @Test
    void theBackendDecidesTheKindOfFaultOrThatItIsNone() throws Exception {
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve("circuit.zkey"));
             Witness witness = WtnsReader.read(MUL3.resolve("witness.wtns"));
             Arena arena = Arena.ofShared()) {
            Synthesized abc = Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8));
            SynthesizedPartition partition = new SynthesizedPartition(key, witness, abc);
            for (DeviceFaultKind kind : DeviceFaultKind.values()) {
                DeviceFaultException fault = new DeviceFaultException("GPU 1: " + kind, null, kind);
                DeviceFaultException e = assertThrows(DeviceFaultException.class, () -> throwing(key, fault)
                        .proveStart(new CpuDevice("gpu0"), partition, null));
                assertEquals(kind, e.kind());
                assertSame(fault, e.getCause());
            }
            for (boolean everFits : new boolean[] {true, false}) {
                DeviceCapacityException full = new DeviceCapacityException("CUDA_ERROR_OUT_OF_MEMORY", null, everFits);
                DeviceCapacityException e = assertThrows(DeviceCapacityException.class, () -> throwing(key, full)
                        .proveStart(new CpuDevice("gpu0"), partition, null));
                assertEquals(everFits, e.everFits());
                assertSame(full, e.getCause());
            }
        }
    }

    private static Groth16PartitionProver throwing(ProvingKey key, RuntimeException e) {
        ProverBackend backend = new ProverBackend() {
            public String name() { return "throwing"; }
            public PendingProof proveStart(ProvingKey k, Witness w, AbcSource abc) { throw e; }
            public Proof proveFinish(PendingProof p) { throw new AssertionError(); }
        };
        return new Groth16PartitionProver(new SingleCircuit("mul3", key), Map.of("gpu0", backend));
    }
}
