package io.proofline.engine.pipeline;

import io.proofline.engine.IntakeClosedException;
import io.proofline.engine.QueueFullException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue in front of the dispatcher, with admission: a job's partitions enter together or not at all, and not
 * beyond the capacity or while intake is closed. Its order is strict by priority and fair between tenants within a
 * priority ({@link FairClock}); each item keeps the {@link QueuePlace} it is given at admission, also when it is put
 * back.
 */
final class WorkQueue<E extends Queued> {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final PriorityQueue<E> queue = new PriorityQueue<>(Comparator.comparing(Queued::place));
    private final FairClock clock = new FairClock();
    private final Map<String, Integer> queuedByTenant = new HashMap<>();
    private final int capacity;
    private final Duration retryAfter;
    private String closedBecause;

    WorkQueue(int capacity, Duration retryAfter) {
        this.capacity = capacity;
        this.retryAfter = retryAfter;
    }

    void admit(List<? extends E> items) {
        if (items.size() > capacity) {
            throw new IllegalArgumentException("a job of " + items.size()
                    + " partitions can never fit a queue of " + capacity);
        }
        lock.lock();
        try {
            if (closedBecause != null) {
                throw new IntakeClosedException(closedBecause);
            }
            if (queue.size() + items.size() > capacity) {
                throw new QueueFullException(queue.size(), items.size(), capacity, retryAfter);
            }
            for (E item : items) {
                item.place(clock.place(item.priority(), item.share()));
                add(item);
            }
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Returns a partition taken from the queue to its place (restarted after a step overran), beyond the capacity: its
     * {@link QueuePlace} is the one it was given at admission, so it goes before everything that arrived after it.
     */
    void putBack(E item) {
        if (item.place() == null) {
            throw new IllegalStateException(item + " was never admitted");
        }
        lock.lock();
        try {
            add(item);
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    void closeIntake(String why) {
        lock.lock();
        try {
            closedBecause = why;
        } finally {
            lock.unlock();
        }
    }

    void openIntake() {
        lock.lock();
        try {
            closedBecause = null;
        } finally {
            lock.unlock();
        }
    }

    boolean isOpen() {
        lock.lock();
        try {
            return closedBecause == null;
        } finally {
            lock.unlock();
        }
    }

    /** The first item in order, waiting while there is none. */
    E awaitHead() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty()) {
                notEmpty.await();
            }
            return queue.peek();
        } finally {
            lock.unlock();
        }
    }

    E head() {
        lock.lock();
        try {
            return queue.peek();
        } finally {
            lock.unlock();
        }
    }

    /** Takes {@code item} out if it is still first in order. */
    boolean removeIfHead(E item) {
        lock.lock();
        try {
            if (queue.peek() != item) {
                return false;
            }
            queue.poll();
            left(item);
            clock.dispatched(item.place());
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean remove(E item) {
        lock.lock();
        try {
            if (!queue.remove(item)) {
                return false;
            }
            left(item);
            return true;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    int capacity() {
        return capacity;
    }

    /** The partitions each tenant has queued now (tenants with none are left out). */
    Map<String, Integer> queuedByTenant() {
        lock.lock();
        try {
            return Map.copyOf(queuedByTenant);
        } finally {
            lock.unlock();
        }
    }

    private void add(E item) {
        queue.add(item);
        queuedByTenant.merge(item.share().tenant(), 1, Integer::sum);
    }

    private void left(E item) {
        queuedByTenant.computeIfPresent(item.share().tenant(), (t, n) -> n == 1 ? null : n - 1);
    }

    List<E> items() {
        lock.lock();
        try {
            return new ArrayList<>(queue);
        } finally {
            lock.unlock();
        }
    }
}
