package io.proofline.engine.pipeline;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Synthesized partitions waiting for a device, in priority order: bounded (a synthesis worker waits with its output)
 * unless the {@link io.proofline.engine.memory.AdmissionPolicy} says otherwise.
 */
final class Handoff<E> {

    /** What {@link #capacity()} reports for an unbounded hand-off. */
    static final int UNBOUNDED = -1;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final PriorityQueue<E> queue;
    private final int capacity;

    /** {@code capacity} 0 or less: no bound. */
    Handoff(Comparator<? super E> order, int capacity) {
        this.queue = new PriorityQueue<>(order);
        this.capacity = capacity > 0 ? capacity : UNBOUNDED;
    }

    /** Adds {@code item}, waiting while the hand-off is full. */
    void put(E item) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (capacity != UNBOUNDED && queue.size() >= capacity) {
                notFull.await();
            }
            queue.add(item);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Puts back an item that was already admitted (a retry after a device fault), ignoring the bound. */
    void requeue(E item) {
        lock.lock();
        try {
            queue.add(item);
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    E take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty()) {
                notEmpty.await();
            }
            E item = queue.poll();
            notFull.signal();
            return item;
        } finally {
            lock.unlock();
        }
    }

    boolean remove(E item) {
        lock.lock();
        try {
            boolean removed = queue.remove(item);
            if (removed) {
                notFull.signal();
            }
            return removed;
        } finally {
            lock.unlock();
        }
    }

    int capacity() {
        return capacity;
    }
}
