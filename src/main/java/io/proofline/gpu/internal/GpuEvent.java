package io.proofline.gpu.internal;

import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUresult;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventQuery;
import static jcuda.driver.JCudaDriver.cuEventRecord;

/**
 * A point in one stream's queue that another stream can wait for ({@link GpuStream#waitFor(GpuEvent)}): how two
 * streams share a result without the host waiting. Timing disabled (the cheapest kind of event).
 */
public final class GpuEvent implements AutoCloseable {

    private final CUevent event = new CUevent();
    private boolean destroyed;

    private GpuEvent() {
        check(cuEventCreate(event, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    }

    /** An event marking the work queued on {@code stream} so far. */
    public static GpuEvent record(GpuStream stream) {
        GpuEvent e = new GpuEvent();
        try {
            check(cuEventRecord(e.event, stream.handle()), "cuEventRecord");
            return e;
        } catch (RuntimeException failure) {
            e.close();
            throw failure;
        }
    }

    /** Whether the work before this event has finished (never waits). */
    public boolean done() {
        int result = cuEventQuery(event);
        if (result == CUresult.CUDA_ERROR_NOT_READY) {
            return false;
        }
        check(result, "cuEventQuery");
        return true;
    }

    CUevent handle() {
        return event;
    }

    /** Safe while a stream still waits for it: the driver releases the event once it has completed. */
    @Override
    public void close() {
        if (!destroyed) {
            destroyed = true;
            check(cuEventDestroy(event), "cuEventDestroy");
        }
    }
}
