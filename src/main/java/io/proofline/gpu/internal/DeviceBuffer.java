package io.proofline.gpu.internal;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoHAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemsetD8;
import static jcuda.driver.JCudaDriver.cuMemsetD8Async;

/**
 * Device memory owned by this object (plain {@code cuMemAlloc}, never managed memory) and freed by {@link #close()}.
 * Copies of {@code long[]} move the host's little-endian limbs unchanged: the device reads the same bytes as
 * 32-bit limbs.
 */
public final class DeviceBuffer implements AutoCloseable {

    /** Largest piece of one host-to-device copy from a {@link MemorySegment} (a ByteBuffer holds below 2 GiB). */
    private static final long UPLOAD_CHUNK = 1L << 30;

    private final CUdeviceptr pointer = new CUdeviceptr();
    private final long bytes;
    private boolean freed;

    private DeviceBuffer(long bytes) {
        this.bytes = bytes;
        check(cuMemAlloc(pointer, Math.max(bytes, 1)), "cuMemAlloc(" + bytes + " bytes)");
    }

    public static DeviceBuffer allocate(long bytes) {
        return new DeviceBuffer(bytes);
    }

    public static DeviceBuffer of(long[] values) {
        DeviceBuffer b = new DeviceBuffer(8L * values.length);
        b.upload(values);
        return b;
    }

    public long bytes() {
        return bytes;
    }

    /** The device address, for kernel arguments. */
    public CUdeviceptr pointer() {
        return pointer;
    }

    /** The device address {@code offsetBytes} into the buffer. */
    public CUdeviceptr at(long offsetBytes) {
        checkRange(offsetBytes, 0);
        return (CUdeviceptr) pointer.withByteOffset(offsetBytes);
    }

    /**
     * Copies all of {@code src} to the start of this buffer, synchronously, in pieces of at most 1 GiB. Native
     * segments (off-heap, or a mapped zkey section) are read in place; a heap segment is staged through native
     * memory first.
     */
    public void upload(MemorySegment src) {
        upload(src, 0);
    }

    /** As {@link #upload(MemorySegment)}, to {@code dstOffset} bytes into this buffer. */
    public void upload(MemorySegment src, long dstOffset) {
        checkRange(dstOffset, src.byteSize());
        for (long off = 0; off < src.byteSize(); off += UPLOAD_CHUNK) {
            long n = Math.min(UPLOAD_CHUNK, src.byteSize() - off);
            MemorySegment piece = src.asSlice(off, n);
            if (piece.isNative()) {
                check(cuMemcpyHtoD(at(dstOffset + off), Pointer.to(piece.asByteBuffer()), n),
                        "cuMemcpyHtoD(" + n + " bytes)");
            } else {
                try (Arena staging = Arena.ofConfined()) {
                    MemorySegment copy = staging.allocate(n, 8).copyFrom(piece);
                    check(cuMemcpyHtoD(at(dstOffset + off), Pointer.to(copy.asByteBuffer()), n),
                            "cuMemcpyHtoD(" + n + " bytes)");
                }
            }
        }
    }

    /** Zeroes the first {@code byteCount} bytes, synchronously. */
    public void zero(long byteCount) {
        checkRange(0, byteCount);
        check(cuMemsetD8(pointer, (byte) 0, byteCount), "cuMemsetD8");
    }

    public void upload(long[] src) {
        checkRange(0, 8L * src.length);
        check(cuMemcpyHtoD(pointer, Pointer.to(src), 8L * src.length), "cuMemcpyHtoD");
    }

    public void upload(int[] src) {
        checkRange(0, 4L * src.length);
        check(cuMemcpyHtoD(pointer, Pointer.to(src), 4L * src.length), "cuMemcpyHtoD");
    }

    /** Asynchronous upload from pinned memory on {@code stream}. */
    public void uploadAsync(PinnedHostBuffer src, long byteCount, GpuStream stream) {
        checkRange(0, byteCount);
        check(cuMemcpyHtoDAsync(pointer, src.pointer(), byteCount, stream.handle()), "cuMemcpyHtoDAsync");
    }

    public void download(long[] dst) {
        checkRange(0, 8L * dst.length);
        check(cuMemcpyDtoH(Pointer.to(dst), pointer, 8L * dst.length), "cuMemcpyDtoH");
    }

    public void download(int[] dst) {
        checkRange(0, 4L * dst.length);
        check(cuMemcpyDtoH(Pointer.to(dst), pointer, 4L * dst.length), "cuMemcpyDtoH");
    }

    /**
     * Queues the copy of this buffer's first {@code byteCount} bytes into {@code dst} on {@code stream}: unlike the
     * synchronous downloads (on the legacy default stream, which waits for every blocking stream), it waits only for
     * the work queued on {@code stream} before it.
     */
    public void downloadAsync(PinnedHostBuffer dst, long byteCount, GpuStream stream) {
        checkRange(0, byteCount);
        if (byteCount > dst.bytes()) {
            throw new IllegalArgumentException(byteCount + " bytes into a pinned buffer of " + dst.bytes());
        }
        check(cuMemcpyDtoHAsync(dst.pointer(), pointer, byteCount, stream.handle()), "cuMemcpyDtoHAsync");
    }

    /** Downloads {@code count} longs starting {@code offsetBytes} into the buffer. */
    public long[] downloadLongs(long offsetBytes, int count) {
        checkRange(offsetBytes, 8L * count);
        long[] dst = new long[count];
        check(cuMemcpyDtoH(Pointer.to(dst), at(offsetBytes), 8L * count), "cuMemcpyDtoH");
        return dst;
    }

    public void copyFromAsync(DeviceBuffer src, long byteCount, GpuStream stream) {
        copyFromAsync(src, byteCount, 0, stream);
    }

    /** Copies the first {@code byteCount} bytes of {@code src} to {@code offsetBytes} into this buffer. */
    public void copyFromAsync(DeviceBuffer src, long byteCount, long offsetBytes, GpuStream stream) {
        checkRange(offsetBytes, byteCount);
        src.checkRange(0, byteCount);
        check(cuMemcpyDtoDAsync(at(offsetBytes), src.pointer, byteCount, stream.handle()), "cuMemcpyDtoDAsync");
    }

    /** Copies {@code byteCount} bytes from {@code srcOffsetBytes} into {@code src} to the start of this buffer. */
    public void copyRangeFromAsync(DeviceBuffer src, long srcOffsetBytes, long byteCount, GpuStream stream) {
        checkRange(0, byteCount);
        src.checkRange(srcOffsetBytes, byteCount);
        check(cuMemcpyDtoDAsync(pointer, src.at(srcOffsetBytes), byteCount, stream.handle()), "cuMemcpyDtoDAsync");
    }

    public void zeroAsync(long byteCount, GpuStream stream) {
        checkRange(0, byteCount);
        check(cuMemsetD8Async(pointer, (byte) 0, byteCount, stream.handle()), "cuMemsetD8Async");
    }

    private void checkRange(long offset, long count) {
        if (freed) {
            throw new IllegalStateException("device buffer already freed");
        }
        if (offset < 0 || count < 0 || offset + count > bytes) {
            throw new IndexOutOfBoundsException("[" + offset + ", +" + count + ") outside a " + bytes + "-byte buffer");
        }
    }

    @Override
    public void close() {
        if (!freed) {
            freed = true;
            check(cuMemFree(pointer), "cuMemFree");
        }
    }
}
