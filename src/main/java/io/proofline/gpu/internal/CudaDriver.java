package io.proofline.gpu.internal;

import io.proofline.gpu.GpuUnavailableException;
import jcuda.driver.JCudaDriver;

import java.util.concurrent.atomic.AtomicReference;

/**
 * One-time start of the CUDA driver through JCuda: loads JCuda's native bridge (libJCudaDriver, which needs only
 * the driver's libcuda.so.1) and calls {@code cuInit}. Failure of either becomes a {@link GpuUnavailableException}
 * with the reason, remembered so that later calls fail the same way without retrying.
 */
public final class CudaDriver {

    private static final AtomicReference<Object> STATE = new AtomicReference<>();

    private CudaDriver() {
    }

    /** Starts the driver once; throws {@link GpuUnavailableException} when it cannot. */
    public static synchronized void initialize() {
        Object state = STATE.get();
        if (state == Boolean.TRUE) {
            return;
        }
        if (state instanceof GpuUnavailableException e) {
            throw new GpuUnavailableException(e.reason(), e);
        }
        try {
            // Return codes instead of JCuda's own exceptions: CudaException.check names the call.
            JCudaDriver.setExceptionsEnabled(false);
            int result = JCudaDriver.cuInit(0);
            if (result != jcuda.driver.CUresult.CUDA_SUCCESS) {
                throw new GpuUnavailableException("cuInit failed: " + jcuda.driver.CUresult.stringFor(result));
            }
            STATE.set(Boolean.TRUE);
        } catch (GpuUnavailableException e) {
            STATE.set(e);
            throw e;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError | ExceptionInInitializerError e) {
            GpuUnavailableException failure = new GpuUnavailableException(
                    "the CUDA driver library could not be loaded (" + firstLine(e) + ")", e);
            STATE.set(failure);
            throw failure;
        }
    }

    /**
     * JCuda's error lists every loading attempt; the useful line is the dynamic linker's complaint about the driver
     * library (e.g. {@code libcuda.so.1: cannot open shared object file}), when there is one.
     */
    private static String firstLine(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            for (String line : String.valueOf(t.getMessage()).split("\n")) {
                int at = line.indexOf("libcuda");
                if (at >= 0) {
                    return line.substring(at).trim() + "; is the NVIDIA driver installed?";
                }
            }
        }
        return firstMessageLine(e);
    }

    private static String firstMessageLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getMessage() == null) {
            t = t.getCause();
        }
        String message = String.valueOf(t.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
