package io.proofline.gpu.internal;

import io.proofline.gpu.GpuPresence;
import io.proofline.gpu.GpuUnavailableException;
import io.proofline.cli.Cli;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** Where there is no GPU (development machines, CI), the GPU layer fails cleanly with a reason. */
class NoGpuTest {

    @Test
    void discoveryReportsNoGpuWithAReason() {
        assumeFalse(GpuPresence.here(), "this machine has a GPU");
        GpuUnavailableException e = assertThrows(GpuUnavailableException.class, GpuDevices::discover);
        assertTrue(e.getMessage().startsWith("no GPU available: "), e.getMessage());
        assertTrue(e.reason().length() > 5, "a reason is given: " + e.reason());
        // A second attempt fails the same way (the outcome is remembered, not retried half-way).
        assertEquals(e.getMessage(), assertThrows(GpuUnavailableException.class, GpuDevices::discover).getMessage());
    }

    @Test
    void selfTestCommandPrintsTheReasonAndExitsThree() {
        assumeFalse(GpuPresence.here(), "this machine has a GPU");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"gpu-selftest", "--seed", "1"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(3, code, printed + err.toString(StandardCharsets.UTF_8));
        assertTrue(printed.startsWith("no GPU available: "), printed);
    }

    @Test
    void cudaErrorsNameTheCallAndTheCode() {
        CudaException e = assertThrows(CudaException.class,
                () -> CudaException.check(jcuda.driver.CUresult.CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc(42 bytes)"));
        assertEquals("cuMemAlloc(42 bytes)", e.call());
        assertEquals(jcuda.driver.CUresult.CUDA_ERROR_OUT_OF_MEMORY, e.result());
        assertTrue(e.getMessage().contains("CUDA_ERROR_OUT_OF_MEMORY"), e.getMessage());
    }
}
