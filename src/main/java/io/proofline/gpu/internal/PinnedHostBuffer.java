package io.proofline.gpu.internal;

import jcuda.Pointer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;

/**
 * Page-locked host memory ({@code cuMemAllocHost}): the DMA engines copy from it directly and asynchronously.
 * Off the JVM heap, freed exactly by {@link #close()}.
 */
public final class PinnedHostBuffer implements AutoCloseable {

    private final Pointer pointer = new Pointer();
    private final long bytes;
    private final ByteBuffer view;
    private boolean freed;

    private PinnedHostBuffer(long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("pinned buffers above 2 GiB need segmenting: " + bytes);
        }
        this.bytes = bytes;
        check(cuMemAllocHost(pointer, Math.max(bytes, 1)), "cuMemAllocHost(" + bytes + " bytes)");
        this.view = pointer.getByteBuffer(0, bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    public static PinnedHostBuffer allocate(long bytes) {
        return new PinnedHostBuffer(bytes);
    }

    public long bytes() {
        return bytes;
    }

    Pointer pointer() {
        return pointer;
    }

    /** A little-endian view of the whole buffer (valid until {@link #close()}). */
    public ByteBuffer view() {
        if (freed) {
            throw new IllegalStateException("pinned buffer already freed");
        }
        return view.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void close() {
        if (!freed) {
            freed = true;
            check(cuMemFreeHost(pointer), "cuMemFreeHost");
        }
    }
}
