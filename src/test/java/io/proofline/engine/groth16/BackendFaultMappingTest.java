package io.proofline.engine.groth16;

import io.proofline.engine.device.DeviceCapacityException;
import io.proofline.engine.device.DeviceFaultException;
import io.proofline.engine.device.DeviceFaultKind;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.Witness;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.BackendCapacityException;
import io.proofline.snark.prover.BackendFaultException;
import io.proofline.snark.prover.DeviceOpenException;
import io.proofline.snark.prover.StickyFaultException;
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
 * A backend's device failure (a CUDA error, say) reaches the engine as a DeviceFaultException, cause kept, of the kind
 * the backend's exception says; a capacity refusal reaches it as a DeviceCapacityException, not a fault.
 */
class BackendFaultMappingTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @Test
    void aBackendFaultInProveStartIsADeviceFault() throws Exception {
        BackendFaultException fault = new BackendFaultException("GPU 0: cuLaunchKernel failed",
                new RuntimeException("CUDA_ERROR_ILLEGAL_ADDRESS"));
        ProverBackend failing = new ProverBackend() {
            public String name() { return "failing"; }
            public PendingProof proveStart(ProvingKey k, Witness w, Synthesized abc) { throw fault; }
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
            assertTrue(e.getMessage().contains("gpu0") && e.getMessage().contains("cuLaunchKernel"), e.getMessage());
        }
    }

    @Test
    void theBackendsExceptionDecidesTheKindOfFaultOrThatItIsNone() throws Exception {
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve("circuit.zkey"));
             Witness witness = WtnsReader.read(MUL3.resolve("witness.wtns"));
             Arena arena = Arena.ofShared()) {
            Synthesized abc = Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8));
            SynthesizedPartition partition = new SynthesizedPartition(key, witness, abc);
            Map<RuntimeException, DeviceFaultKind> faults = Map.of(
                    new BackendFaultException("launch failed", null), DeviceFaultKind.TRANSIENT,
                    new DeviceOpenException("GPU 1 could not be opened", null), DeviceFaultKind.UNUSABLE,
                    new StickyFaultException("CUDA_ERROR_ILLEGAL_ADDRESS", null), DeviceFaultKind.STICKY);
            for (var fault : faults.entrySet()) {
                DeviceFaultException e = assertThrows(DeviceFaultException.class, () -> throwing(key, fault.getKey())
                        .proveStart(new CpuDevice("gpu0"), partition, null));
                assertEquals(fault.getValue(), e.kind(), fault.getKey().toString());
                assertSame(fault.getKey(), e.getCause());
            }
            for (boolean everFits : new boolean[] {true, false}) {
                BackendCapacityException full = new BackendCapacityException("CUDA_ERROR_OUT_OF_MEMORY", null, everFits);
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
            public PendingProof proveStart(ProvingKey k, Witness w, Synthesized abc) { throw e; }
            public Proof proveFinish(PendingProof p) { throw new AssertionError(); }
        };
        return new Groth16PartitionProver(new SingleCircuit("mul3", key), Map.of("gpu0", backend));
    }
}
