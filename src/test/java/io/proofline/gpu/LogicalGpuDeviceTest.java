package io.proofline.gpu;

import io.proofline.snark.prover.DeviceShare;
import io.proofline.snark.prover.ProverBackend;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/**
 * Logical devices of the GPU backend, checked without a GPU (nothing here opens a device): every share is a new
 * instance (own worker, stream, resident keys) and the key budgets of one GPU's shares add up to half its
 * budget.
 */
class LogicalGpuDeviceTest {

    @Test
    void eachShareIsANewBackendWithItsPartOfTheKeyBudget() {
        GpuProverBackend base = new GpuProverBackend(GpuConfig.DEFAULTS);
        long budget = 64L << 30;
        GpuProverBackend a = (GpuProverBackend) base.forDevice(new DeviceShare(0, "gpu0", 2, budget));
        GpuProverBackend b = (GpuProverBackend) base.forDevice(new DeviceShare(0, "gpu1", 2, budget));
        assertNotSame(base, a);
        assertNotSame(a, b);
        assertEquals(0, a.ordinal());
        assertEquals(budget / 2, a.keyBudgetBytes() + b.keyBudgetBytes());
        ProverBackend other = base.forDevice(new DeviceShare(1, "gpu2", 1, 0));
        assertEquals(1, ((GpuProverBackend) other).ordinal());
        assertEquals(0, ((GpuProverBackend) other).keyBudgetBytes(), "0: half the device's memory, read on open");
    }

    @Test
    void theConfiguredBudgetIsTheShareWhenTheShareNamesNone() {
        long budget = 40L << 30;
        GpuConfig config = new GpuConfig(GpuConfig.B2Placement.AUTO, 17, java.util.Optional.empty(), budget);
        GpuProverBackend base = new GpuProverBackend(config);
        assertEquals(budget / 2, base.keyBudgetBytes());
        GpuProverBackend shared = (GpuProverBackend) base.forDevice(new DeviceShare(0, "gpu0", 2, 0));
        assertEquals(budget / 4, shared.keyBudgetBytes());
        assertEquals(config, shared.config());
    }
}
