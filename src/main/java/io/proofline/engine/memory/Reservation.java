package io.proofline.engine.memory;

/**
 * Bytes held from a {@link MemoryBudget}. Return part early with {@link #release(long)}, the rest with
 * {@link #close()} (exactly once: closing again does nothing), or hand some to another owner, such as a key
 * cache, with {@link #split(long)}. Thread-safe.
 */
public final class Reservation implements AutoCloseable {

    private final MemoryBudget budget;
    private long heldBytes;
    private boolean closed;

    Reservation(MemoryBudget budget, long bytes) {
        this.budget = budget;
        this.heldBytes = bytes;
    }

    /** The bytes still held. */
    public synchronized long bytes() {
        return heldBytes;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** Returns {@code bytes} of this reservation to the budget now; the rest stays held. */
    public void release(long bytes) {
        synchronized (this) {
            checkPart(bytes);
            heldBytes -= bytes;
        }
        budget.giveBack(bytes);
    }

    /**
     * Moves {@code bytes} of this reservation into a new one without returning them to the budget: the
     * explicit hand-over to another owner (e.g. a key cache that keeps a parsed key charged to the budget
     * until it evicts it).
     */
    public Reservation split(long bytes) {
        synchronized (this) {
            checkPart(bytes);
            heldBytes -= bytes;
        }
        return new Reservation(budget, bytes);
    }

    /** Returns whatever is still held; only the first call has an effect. */
    @Override
    public void close() {
        long rest;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            rest = heldBytes;
            heldBytes = 0;
        }
        budget.giveBack(rest);
    }

    private void checkPart(long bytes) {
        if (closed) {
            throw new IllegalStateException("reservation already closed");
        }
        if (bytes < 0 || bytes > heldBytes) {
            throw new IllegalArgumentException("cannot take " + bytes + " B from a reservation of " + heldBytes + " B");
        }
    }

    @Override
    public synchronized String toString() {
        return closed ? "Reservation[closed]" : "Reservation[" + heldBytes + " B]";
    }
}
