package io.proofline.engine.memory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A pool of bytes that every large allocation draws from before it happens: partitions (WITNESS + ABC +
 * PENDING, taken by the dispatcher before synthesis) and cached proving keys alike.
 *
 * <p>Waiting is built on one lock and a {@link Condition}: a waiter checks the free bytes and starts
 * waiting under the same lock a release takes to signal, so a release between the check and the wait
 * cannot be missed (cuzk's {@code memory.rs} can miss it: it registers for notification only after its
 * check failed).
 */
public final class MemoryBudget {

    private final long totalBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition released = lock.newCondition();
    private long reservedBytes;
    private long peakReservedBytes;
    private long releases;

    public MemoryBudget(long totalBytes) {
        if (totalBytes <= 0) {
            throw new IllegalArgumentException("a budget must be positive: " + totalBytes);
        }
        this.totalBytes = totalBytes;
    }

    public long total() {
        return totalBytes;
    }

    public long reserved() {
        lock.lock();
        try {
            return reservedBytes;
        } finally {
            lock.unlock();
        }
    }

    public long available() {
        lock.lock();
        try {
            return totalBytes - reservedBytes;
        } finally {
            lock.unlock();
        }
    }

    /** The most bytes ever reserved at once. */
    public long peakReserved() {
        lock.lock();
        try {
            return peakReservedBytes;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code bytes} could ever be reserved, i.e. fits the whole budget. */
    public boolean canEverFit(long bytes) {
        return bytes <= totalBytes;
    }

    /** Reserves {@code bytes}, waiting as long as it takes. */
    public Reservation acquire(long bytes) throws InterruptedException {
        checkRequest(bytes);
        lock.lockInterruptibly();
        try {
            while (totalBytes - reservedBytes < bytes) {
                released.await();
            }
            return take(bytes);
        } finally {
            lock.unlock();
        }
    }

    /** Reserves {@code bytes}, waiting at most {@code timeout}; empty when the time ran out. */
    public Optional<Reservation> acquire(long bytes, Duration timeout) throws InterruptedException {
        checkRequest(bytes);
        long nanos = timeout.toNanos();
        lock.lockInterruptibly();
        try {
            while (totalBytes - reservedBytes < bytes) {
                if (nanos <= 0) {
                    return Optional.empty();
                }
                nanos = released.awaitNanos(nanos);
            }
            return Optional.of(take(bytes));
        } finally {
            lock.unlock();
        }
    }

    /** How many times bytes went back so far: pass it to {@link #awaitRelease} to miss none. */
    public long releases() {
        lock.lock();
        try {
            return releases;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until bytes went back after {@link #releases()} returned {@code seen}, or {@code timeout} passed.
     *
     * @return whether bytes went back
     */
    public boolean awaitRelease(long seen, Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lockInterruptibly();
        try {
            while (releases == seen) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = released.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Reserves {@code bytes} if they are free now; never waits. */
    public Optional<Reservation> tryAcquire(long bytes) {
        checkRequest(bytes);
        lock.lock();
        try {
            return totalBytes - reservedBytes < bytes ? Optional.empty() : Optional.of(take(bytes));
        } finally {
            lock.unlock();
        }
    }

    /** Called by {@link Reservation} only. */
    void giveBack(long bytes) {
        if (bytes == 0) {
            return;
        }
        lock.lock();
        try {
            if (bytes > reservedBytes) {
                throw new IllegalStateException("returning " + bytes + " B but only " + reservedBytes + " B reserved");
            }
            reservedBytes -= bytes;
            releases++;
            released.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private Reservation take(long bytes) {
        reservedBytes += bytes;
        peakReservedBytes = Math.max(peakReservedBytes, reservedBytes);
        return new Reservation(this, bytes);
    }

    private void checkRequest(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative reservation: " + bytes);
        }
        if (bytes > totalBytes) {
            throw new IllegalArgumentException("a reservation of " + bytes + " B can never fit a budget of "
                    + totalBytes + " B");
        }
    }

    @Override
    public String toString() {
        return "MemoryBudget[" + reserved() + " of " + totalBytes + " B reserved]";
    }
}
