package io.proofline.engine;

/**
 * Implemented by proving-key caches whose entries are charged to the {@link MemoryBudget}. The dispatcher
 * calls it before it blocks for memory, so idle cached keys (LRU first) give way to work.
 */
@FunctionalInterface
public interface KeyEvictor {

    /** An evictor for engines without a key cache. */
    KeyEvictor NONE = bytesWanted -> 0;

    /**
     * Evicts idle keys until at least {@code bytesWanted} bytes went back to the budget, or none is idle.
     *
     * @return the bytes returned to the budget
     */
    long evictIdle(long bytesWanted);
}
