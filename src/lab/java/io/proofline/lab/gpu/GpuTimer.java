package io.proofline.lab.gpu;

import io.proofline.gpu.internal.GpuStream;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

/** Times work on a stream with a pair of CUDA events (device time, not host time). */
final class GpuTimer implements AutoCloseable {

    private final CUevent start = new CUevent();
    private final CUevent stop = new CUevent();

    GpuTimer() {
        check(cuEventCreate(start, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
        check(cuEventCreate(stop, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
    }

    public void start(GpuStream stream) {
        check(cuEventRecord(start, stream.handle()), "cuEventRecord(start)");
    }

    /** Records the stop event, waits for it and returns the milliseconds between the two events. */
    public double stopMillis(GpuStream stream) {
        check(cuEventRecord(stop, stream.handle()), "cuEventRecord(stop)");
        check(cuEventSynchronize(stop), "cuEventSynchronize");
        float[] ms = new float[1];
        check(cuEventElapsedTime(ms, start, stop), "cuEventElapsedTime");
        return ms[0];
    }

    /**
     * Device milliseconds of {@code repeats} runs of {@code work} after {@code warmups} untimed ones, sorted (the
     * median is the middle element).
     */
    public double[] sample(GpuStream stream, int warmups, int repeats, Runnable work) {
        for (int i = 0; i < warmups; i++) {
            work.run();
        }
        stream.synchronize();
        double[] ms = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            start(stream);
            work.run();
            ms[i] = stopMillis(stream);
        }
        java.util.Arrays.sort(ms);
        return ms;
    }

    @Override
    public void close() {
        check(cuEventDestroy(start), "cuEventDestroy");
        check(cuEventDestroy(stop), "cuEventDestroy");
    }
}
