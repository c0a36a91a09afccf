package io.proofline.service.config;

import io.proofline.engine.device.ProvingDevice;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.DeviceBackendDouble;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.DeviceShare;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code proofline.gpu.devices} becomes logical devices, each its own backend instance, plus the CPU fallback. */
class DeviceAssemblyTest {

    private static final long GIB = 1L << 30;

    /** A GPU backend stand-in: {@code present} devices; each instance remembers the share it was made for. */
    private static final class FakeGpu extends DeviceBackendDouble {
        private final int present;
        private final DeviceShare share;

        FakeGpu(int present, DeviceShare share) {
            this.present = present;
            this.share = share;
        }

        DeviceShare share() {
            return share;
        }

        @Override
        public String name() {
            return "gpu";
        }

        @Override
        public int deviceCount() {
            return present;
        }

        @Override
        public DeviceProverBackend forDevice(DeviceShare s) {
            return new FakeGpu(present, s);
        }
    }

    private final CpuProverBackend cpu = new CpuProverBackend();

    private static List<String> ids(DeviceBackends b) {
        return b.devices().stream().map(ProvingDevice::id).toList();
    }

    @Test
    void oneOrdinalTwiceGivesTwoLogicalDevicesWithTheirOwnBackendsAndHalfTheBudgetEach() {
        DeviceBackends b = DeviceAssembly.assemble(List.of(0, 0), Optional.of(new FakeGpu(1, null)), 80 * GIB,
                true, cpu);
        assertEquals(List.of("gpu0", "gpu1", "cpu"), ids(b));
        FakeGpu gpu0 = (FakeGpu) b.byDevice().get("gpu0");
        FakeGpu gpu1 = (FakeGpu) b.byDevice().get("gpu1");
        assertNotSame(gpu0, gpu1);
        assertEquals(new DeviceShare(0, "gpu0", 2, 80 * GIB), gpu0.share());
        assertEquals(new DeviceShare(0, "gpu1", 2, 80 * GIB), gpu1.share());
        assertFalse(b.devices().get(0).fallback());
        assertFalse(b.devices().get(1).fallback());
        assertTrue(b.devices().get(2).fallback(), "the CPU beside GPUs is a fallback device");
        assertSame(cpu, b.byDevice().get("cpu"));
    }

    @Test
    void sharersAreCountedPerPhysicalGpu() {
        DeviceBackends b = DeviceAssembly.assemble(List.of(0, 1, 0), Optional.of(new FakeGpu(2, null)), 0, false, cpu);
        assertEquals(List.of("gpu0", "gpu1", "gpu2"), ids(b));
        assertEquals(2, ((FakeGpu) b.byDevice().get("gpu0")).share().sharers());
        assertEquals(1, ((FakeGpu) b.byDevice().get("gpu1")).share().sharers());
        assertEquals(1, ((FakeGpu) b.byDevice().get("gpu1")).share().ordinal());
        assertEquals(0, ((FakeGpu) b.byDevice().get("gpu2")).share().ordinal());
    }

    @Test
    void noOrdinalsMeansOneLogicalDevicePerGpuPresent() {
        DeviceBackends b = DeviceAssembly.assemble(List.of(), Optional.of(new FakeGpu(3, null)), 0, true, cpu);
        assertEquals(List.of("gpu0", "gpu1", "gpu2", "cpu"), ids(b));
    }

    @Test
    void anOrdinalThatIsNotPresentIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceAssembly.assemble(List.of(0, 1), Optional.of(new FakeGpu(1, null)), 0, true, cpu));
        assertTrue(e.getMessage().contains("GPU 1"), e.getMessage());
    }

    @Test
    void withoutAGpuTheCpuIsTheOneOrdinaryDevice() {
        DeviceBackends b = DeviceAssembly.assemble(List.of(0, 0), Optional.empty(), 0, true, cpu);
        assertEquals(List.of("cpu"), ids(b));
        assertFalse(b.devices().getFirst().fallback());
    }
}
