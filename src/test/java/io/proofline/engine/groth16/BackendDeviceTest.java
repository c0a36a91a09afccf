package io.proofline.engine.groth16;

import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.device.DeviceMemory;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.DeviceBackendDouble;
import io.proofline.snark.prover.DeviceUsage;
import org.junit.jupiter.api.Test;

import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A backend's device usage becomes its device's memory figures, and a failing or absent report is UNKNOWN. */
class BackendDeviceTest {

    /** A backend that reports what the test gives it and proves nothing. */
    private static final class ReportingBackend extends DeviceBackendDouble {
        private final Supplier<DeviceUsage> usage;

        ReportingBackend(Supplier<DeviceUsage> usage) {
            this.usage = usage;
        }

        @Override
        public String name() {
            return "fake-gpu";
        }

        @Override
        public DeviceUsage deviceUsage() {
            return usage.get();
        }
    }

    @Test
    void theBackendsKeysAndScratchBecomeTheDevicesBufferFigures() {
        BackendDevice device = new BackendDevice("gpu0", new ReportingBackend(
                () -> new DeviceUsage(6L << 30, 130L << 30, 2, 1L << 30, 9, 300L << 20)));
        DeviceMemory m = device.memory();
        assertEquals(new DeviceMemory(6L << 30, 130L << 30, 2, 1L << 30, 9, 300L << 20), m);
        assertEquals(1L << 30, m.bytes(BufferClass.KEY_DEVICE));
        assertEquals(9, m.count(BufferClass.SCRATCH_DEVICE));
    }

    @Test
    void aDeviceNotOpenedYetHoldsNothingAndItsMemoryIsUnknown() {
        DeviceMemory m = new BackendDevice("gpu0", new ReportingBackend(() -> DeviceUsage.NOTHING_HELD))
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
