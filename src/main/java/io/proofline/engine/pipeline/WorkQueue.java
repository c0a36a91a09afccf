package io.proofline.engine.pipeline;

import io.proofline.engine.IntakeClosedException;
import io.proofline.engine.QueueFullException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The priority queue in front of the dispatcher, with admission: a job's partitions enter together or not
 * at all, and not beyond the capacity or while intake is closed.
 */
final class WorkQueue<E> {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final PriorityQueue<E> queue;
    private final int capacity;
    private final Duration retryAfter;
    private String closedBecause;

    WorkQueue(Comparator<? super E> order, int capacity, Duration retryAfter) {
        this.queue = new PriorityQueue<>(order);
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
            queue.addAll(items);
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
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean remove(E item) {
        lock.lock();
        try {
            return queue.remove(item);
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

    List<E> items() {
        lock.lock();
        try {
            return new ArrayList<>(queue);
        } finally {
            lock.unlock();
        }
    }
}
