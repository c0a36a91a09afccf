package io.proofline.engine.groth16;

import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.device.DeviceMemory;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.DeviceUsage;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.Synthesized;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A backend's device usage becomes its device's memory figures, and a failing or absent report is UNKNOWN. */
class BackendDeviceTest {

    /** A backend that reports what the test gives it and proves nothing. */
    private record ReportingBackend(Supplier<Optional<DeviceUsage>> usage) implements ProverBackend {
        @Override
        public String name() {
            return "fake-gpu";
        }

        @Override
        public Optional<DeviceUsage> deviceUsage() {
            return usage.get();
        }

        @Override
        public PendingProof proveStart(ProvingKey key, Witness witness, Synthesized abc) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Proof proveFinish(PendingProof pending) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void theBackendsKeysAndScratchBecomeTheDevicesBufferFigures() {
        BackendDevice device = new BackendDevice("gpu0", new ReportingBackend(
                () -> Optional.of(new DeviceUsage(6L << 30, 130L << 30, 2, 1L << 30, 9, 300L << 20))));
        DeviceMemory m = device.memory();
        assertEquals(new DeviceMemory(6L << 30, 130L << 30, 2, 1L << 30, 9, 300L << 20), m);
        assertEquals(1L << 30, m.bytes(BufferClass.KEY_DEVICE));
        assertEquals(9, m.count(BufferClass.SCRATCH_DEVICE));
    }

    @Test
    void aDeviceNotOpenedYetHoldsNothingAndItsMemoryIsUnknown() {
        DeviceMemory m = new BackendDevice("gpu0", new ReportingBackend(() -> Optional.of(DeviceUsage.NOTHING_HELD)))
                .memory();
        assertEquals(-1, m.usedBytes());
        assertEquals(0, m.keyBytes() + m.scratchBytes() + m.keyBuffers() + m.scratchBuffers());
    }

    @Test
    void noReportOrAFailingOneIsUnknownRatherThanAnError() {
        assertEquals(DeviceMemory.UNKNOWN, new BackendDevice("cpu", new CpuProverBackend()).memory());
        assertEquals(DeviceMemory.UNKNOWN, new BackendDevice("gpu0", new ReportingBackend(() -> {
            throw new IllegalStateException("CUDA_ERROR_ILLEGAL_ADDRESS");
        })).memory());
    }
}
