package io.proofline.gpu.internal;

import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;
import static jcuda.driver.JCudaDriver.cuStreamWaitEvent;

/**
 * A CUDA stream: work queued on it runs in order, asynchronously to the host. A blocking stream (not
 * {@code NON_BLOCKING}): it orders itself after the synchronous copies of {@link DeviceBuffer}, which run on the
 * legacy default stream and may return before a pageable upload has reached the device.
 */
public final class GpuStream implements AutoCloseable {

    private final CUstream stream = new CUstream();
    private boolean destroyed;

    public GpuStream() {
        check(cuStreamCreate(stream, CUstream_flags.CU_STREAM_DEFAULT), "cuStreamCreate");
    }

    /** The driver's handle, for CUDA calls outside this package (the lab's event timers). */
    public CUstream handle() {
        return stream;
    }

    /** Makes the work queued on this stream from now on wait for {@code event} (the host does not wait). */
    public void waitFor(GpuEvent event) {
        check(cuStreamWaitEvent(stream, event.handle(), 0), "cuStreamWaitEvent");
    }

    public void synchronize() {
        check(cuStreamSynchronize(stream), "cuStreamSynchronize");
    }

    @Override
    public void close() {
        if (!destroyed) {
            destroyed = true;
            check(cuStreamDestroy(stream), "cuStreamDestroy");
        }
    }
}
