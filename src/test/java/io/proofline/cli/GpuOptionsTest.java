package io.proofline.cli;

import io.proofline.gpu.GpuConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI's GPU flags build the configuration {@code proofline.gpu.*} would. */
class GpuOptionsTest {

    @Test
    void abcPlacementIsAFlagDefaultingToTheDevice() throws UsageException {
        assertEquals(GpuConfig.DEFAULTS, GpuOptions.config(Map.of()));
        assertEquals(GpuConfig.AbcPlacement.DEVICE, GpuOptions.config(Map.of()).abc());
        assertEquals(GpuConfig.AbcPlacement.HOST, GpuOptions.config(Map.of("--abc", "host")).abc());
        assertEquals(GpuConfig.AbcPlacement.DEVICE, GpuOptions.config(Map.of("--abc", "Device")).abc());
        assertTrue(GpuOptions.isGpuOption("--abc"));
        UsageException e = assertThrows(UsageException.class, () -> GpuOptions.config(Map.of("--abc", "gpu")));
        assertEquals("--abc must be device or host, got 'gpu'", e.getMessage());
    }
}
