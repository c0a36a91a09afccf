package io.proofline.gpu.internal;

import jcuda.driver.CUresult;

import java.util.Set;

/**
 * What a CUDA driver error says about the device: whether it was only out of memory (the device is healthy, the
 * work did not fit) or left the context unusable — a sticky error, after which every call in the context fails
 * until it is destroyed and a new one created (the driver API documents these codes so).
 */
public final class CudaFaults {

    private static final Set<Integer> STICKY = Set.of(
            CUresult.CUDA_ERROR_ILLEGAL_ADDRESS,
            CUresult.CUDA_ERROR_LAUNCH_TIMEOUT,
            CUresult.CUDA_ERROR_LAUNCH_FAILED,
            CUresult.CUDA_ERROR_ASSERT,
            CUresult.CUDA_ERROR_HARDWARE_STACK_ERROR,
            CUresult.CUDA_ERROR_ILLEGAL_INSTRUCTION,
            CUresult.CUDA_ERROR_MISALIGNED_ADDRESS,
            CUresult.CUDA_ERROR_INVALID_ADDRESS_SPACE,
            CUresult.CUDA_ERROR_INVALID_PC,
            CUresult.CUDA_ERROR_ECC_UNCORRECTABLE,
            CUresult.CUDA_ERROR_NVLINK_UNCORRECTABLE,
            CUresult.CUDA_ERROR_CONTEXT_IS_DESTROYED);

    private CudaFaults() {
    }

    /** The context is unusable until destroyed and created anew. */
    public static boolean sticky(CudaException e) {
        return STICKY.contains(e.result());
    }

    /** The device had no memory left for an allocation: capacity, not a fault. */
    public static boolean outOfMemory(CudaException e) {
        return e.result() == CUresult.CUDA_ERROR_OUT_OF_MEMORY;
    }
}
