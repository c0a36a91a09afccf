package io.proofline.engine.memory;

import io.proofline.engine.Stage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A tracked off-heap buffer in its own shared {@link Arena}, so freeing it returns the memory to the
 * operating system at once and RSS follows the buffer table. Close it (or let the engine close it) exactly
 * when its contents are dead; closing again does nothing. Any thread may use the segment until then.
 */
public final class OffHeapBuffer implements AutoCloseable {

    /** Alignment of every buffer: a cache line, and enough for any limb or vector load. */
    public static final long ALIGNMENT = 64;

    private final Arena arena;
    private final MemorySegment segment;
    private final TrackedBuffer entry;

    OffHeapBuffer(Arena arena, MemorySegment segment, TrackedBuffer entry) {
        this.arena = arena;
        this.segment = segment;
        this.entry = entry;
    }

    /** The memory to compute into; invalid once the buffer is closed. */
    public MemorySegment segment() {
        return segment;
    }

    public BufferClass bufferClass() {
        return entry.bufferClass();
    }

    public long bytes() {
        return entry.bytes();
    }

    public Stage stage() {
        return entry.stage();
    }

    public void moveTo(Stage next) {
        entry.moveTo(next);
    }

    public boolean isClosed() {
        return entry.isClosed();
    }

    @Override
    public void close() {
        synchronized (entry) {
            if (entry.isClosed()) {
                return;
            }
            arena.close();
            entry.close();
        }
    }
}
