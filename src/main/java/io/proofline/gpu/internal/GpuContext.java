package io.proofline.gpu.internal;

import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;

/**
 * The device's primary context (one per device, shared by every thread of the process, as the runtime API does).
 * CUDA binds a context to the calling thread: a thread calls {@link #makeCurrent()} before its first driver call.
 */
public final class GpuContext implements AutoCloseable {

    private final GpuDevice device;
    private final CUdevice handle;
    private final CUcontext context = new CUcontext();
    private boolean closed;

    private GpuContext(GpuDevice device) {
        this.device = device;
        this.handle = GpuDevices.handle(device.ordinal());
        check(cuDevicePrimaryCtxRetain(context, handle), "cuDevicePrimaryCtxRetain(" + device.ordinal() + ")");
        makeCurrent();
    }

    /** Retains the device's primary context and makes it current on the calling thread. */
    public static GpuContext open(GpuDevice device) {
        return new GpuContext(device);
    }

    public GpuDevice device() {
        return device;
    }

    public void makeCurrent() {
        check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    }

    public void synchronize() {
        check(cuCtxSynchronize(), "cuCtxSynchronize");
    }

    /** {free, total} device memory in bytes. */
    public long[] memoryInfo() {
        long[] free = new long[1];
        long[] total = new long[1];
        check(cuMemGetInfo(free, total), "cuMemGetInfo");
        return new long[] {free[0], total[0]};
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            check(cuDevicePrimaryCtxRelease(handle), "cuDevicePrimaryCtxRelease");
        }
    }
}
