package io.proofline.gpu.internal;

import jcuda.driver.CUresult;

/** A CUDA driver call returned an error: carries the call (what was attempted, with its arguments) and the code. */
public final class CudaException extends RuntimeException {

    private final int result;
    private final String call;

    public CudaException(int result, String call) {
        super(call + " failed: " + CUresult.stringFor(result) + " (" + result + ")");
        this.result = result;
        this.call = call;
    }

    /** The driver's {@code CUresult} code. */
    public int result() {
        return result;
    }

    /** The failed call as written at the call site, e.g. {@code cuLaunchKernel(bn254_g1_accumulate)}. */
    public String call() {
        return call;
    }

    /** The CUDA_OK of this code base: throws when {@code result} is not {@code CUDA_SUCCESS}. */
    public static void check(int result, String call) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaException(result, call);
        }
    }
}
