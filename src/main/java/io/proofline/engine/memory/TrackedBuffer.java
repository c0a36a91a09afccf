package io.proofline.engine.memory;

import io.proofline.engine.Stage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A buffer's entry in the {@link BufferTracker}: its class, size and current stage. Closing it removes
 * the entry exactly once; closing again does nothing.
 */
public final class TrackedBuffer implements AutoCloseable {

    private final BufferTracker tracker;
    private final BufferClass bufferClass;
    private final long bytes;
    private final boolean offHeap;
    private final AtomicBoolean closed = new AtomicBoolean();
    private Stage stage;

    TrackedBuffer(BufferTracker tracker, BufferClass bufferClass, Stage stage, long bytes, boolean offHeap) {
        this.tracker = tracker;
        this.bufferClass = bufferClass;
        this.stage = stage;
        this.bytes = bytes;
        this.offHeap = offHeap;
    }

    public BufferClass bufferClass() {
        return bufferClass;
    }

    public long bytes() {
        return bytes;
    }

    public synchronized Stage stage() {
        return stage;
    }

    boolean offHeap() {
        return offHeap;
    }

    /** Moves the entry to another stage's column. */
    public synchronized void moveTo(Stage next) {
        if (closed.get() || next == stage) {
            return;
        }
        tracker.move(bufferClass, stage, next, bytes);
        stage = next;
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public synchronized void close() {
        if (closed.compareAndSet(false, true)) {
            tracker.remove(this, stage);
        }
    }
}
