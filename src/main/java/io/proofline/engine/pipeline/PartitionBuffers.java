package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferAllocator;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.OffHeapBuffer;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.Stage;

import java.util.ArrayList;
import java.util.List;

/**
 * The allocator one partition gets: its buffers follow the partition's stage in the tracker, may not
 * exceed the partition's footprint per class, and are freed by the engine (never by a finalizer).
 */
final class PartitionBuffers implements BufferAllocator {

    private final BufferTracker tracker;
    private final PartitionFootprint footprint;
    private final List<OffHeapBuffer> live = new ArrayList<>();
    private Stage stage = Stage.QUEUED;
    private boolean closed;
    /** ABC bytes allowed beyond the footprint while a late a/b/c evaluation holds its reservation. */
    private long lateAbc;

    PartitionBuffers(BufferTracker tracker, PartitionFootprint footprint) {
        this.tracker = tracker;
        this.footprint = footprint;
    }

    @Override
    public synchronized OffHeapBuffer allocate(BufferClass bufferClass, long bytes) {
        if (closed) {
            throw new IllegalStateException("the partition has finished; its buffers are freed");
        }
        long allowed = footprint.bytes(bufferClass) + (bufferClass == BufferClass.ABC ? lateAbc : 0);
        long held = liveBytes(bufferClass);
        if (held + bytes > allowed) {
            throw new IllegalStateException("allocating " + bytes + " B of " + bufferClass + " (" + held
                    + " B live) exceeds the partition's footprint of " + allowed + " B for that class");
        }
        OffHeapBuffer buffer = tracker.allocate(bufferClass, stage, bytes);
        live.add(buffer);
        return buffer;
    }

    /** Allows {@code bytes} of ABC beyond the footprint (reserved by the caller), until {@link #free}(ABC). */
    synchronized void allowLateAbc(long bytes) {
        lateAbc = bytes;
    }

    synchronized void moveTo(Stage next) {
        stage = next;
        live.removeIf(OffHeapBuffer::isClosed);
        live.forEach(b -> b.moveTo(next));
    }

    /** Frees the partition's buffers of one class (ABC after prove start, PENDING after a device fault). */
    synchronized void free(BufferClass bufferClass) {
        if (bufferClass == BufferClass.ABC) {
            lateAbc = 0;
        }
        live.removeIf(b -> {
            if (b.bufferClass() == bufferClass) {
                b.close();
                return true;
            }
            return b.isClosed();
        });
    }

    /** Frees everything and refuses further allocation; idempotent. */
    synchronized void close() {
        closed = true;
        live.forEach(OffHeapBuffer::close);
        live.clear();
    }

    private long liveBytes(BufferClass bufferClass) {
        long sum = 0;
        for (OffHeapBuffer b : live) {
            if (b.bufferClass() == bufferClass && !b.isClosed()) {
                sum += b.bytes();
            }
        }
        return sum;
    }
}
