package io.proofline.gpu.internal;

import jcuda.driver.CUresult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which CUDA errors are capacity (out of memory), which break the context (sticky), and which are neither. */
class CudaFaultsTest {

    private static CudaException error(int result) {
        return new CudaException(result, "cuLaunchKernel(test)");
    }

    @Test
    void outOfMemoryIsCapacityNotASickContext() {
        CudaException oom = error(CUresult.CUDA_ERROR_OUT_OF_MEMORY);
        assertTrue(CudaFaults.outOfMemory(oom));
        assertFalse(CudaFaults.sticky(oom));
    }

    @Test
    void anIllegalAddressOrAFailedLaunchLeavesTheContextUnusable() {
        for (int code : new int[] {CUresult.CUDA_ERROR_ILLEGAL_ADDRESS, CUresult.CUDA_ERROR_LAUNCH_FAILED,
                CUresult.CUDA_ERROR_MISALIGNED_ADDRESS, CUresult.CUDA_ERROR_ECC_UNCORRECTABLE}) {
            assertTrue(CudaFaults.sticky(error(code)), CUresult.stringFor(code));
            assertFalse(CudaFaults.outOfMemory(error(code)));
        }
    }

    @Test
    void otherErrorsAreOrdinaryFaults() {
        for (int code : new int[] {CUresult.CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, CUresult.CUDA_ERROR_INVALID_VALUE,
                CUresult.CUDA_ERROR_NOT_FOUND}) {
            assertFalse(CudaFaults.sticky(error(code)), CUresult.stringFor(code));
            assertFalse(CudaFaults.outOfMemory(error(code)));
        }
    }
}
