package io.proofline.engine.memory;

/**
 * Hands out tracked off-heap buffers. The one a partition gets is bound to it: its buffers move with the
 * partition's stage in the {@link BufferTracker} and are freed by the engine at the end of their lifetime
 * (ABC after prove start, the rest after finish) and on every failure or cancellation path.
 */
public interface BufferAllocator {

    /**
     * A zeroed, 64-byte aligned off-heap buffer of {@code bytes}.
     *
     * @throws IllegalStateException when the partition's live bytes of this class would exceed its
     *                               {@link PartitionFootprint} (the reservation would be a lie)
     */
    OffHeapBuffer allocate(BufferClass bufferClass, long bytes);
}
