package io.proofline.web;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The request bodies being read now, in total and per API key, each bounded ({@code proofline.uploads.*}): a body
 * holds a worker thread while it arrives, so a client with many slow uploads could otherwise take every thread, the
 * health probes' too.
 */
final class UploadSlots {

    /** Why no slot was given. */
    enum Refusal { KEY_FULL, INSTANCE_FULL }

    /** A slot held while one body is read; {@link #close} gives it back. */
    interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    private final int total;
    private final int perKey;
    private final AtomicInteger inUse = new AtomicInteger();
    private final ConcurrentHashMap<String, AtomicInteger> byKey = new ConcurrentHashMap<>();

    UploadSlots(int total, int perKey) {
        this.total = total;
        this.perKey = perKey;
    }

    int total() {
        return total;
    }

    int perKey() {
        return perKey;
    }

    /** Bodies being read now. */
    int inUse() {
        return inUse.get();
    }

    /** A slot for one body of {@code key}, or the refusal. */
    Object tryAcquire(String key) {
        AtomicInteger mine = byKey.compute(key, (k, n) -> {
            AtomicInteger count = n == null ? new AtomicInteger() : n;
            count.incrementAndGet();
            return count;
        });
        if (mine.get() > perKey) {
            release(key);
            return Refusal.KEY_FULL;
        }
        if (inUse.incrementAndGet() > total) {
            inUse.decrementAndGet();
            release(key);
            return Refusal.INSTANCE_FULL;
        }
        return (Slot) () -> {
            inUse.decrementAndGet();
            release(key);
        };
    }

    private void release(String key) {
        byKey.computeIfPresent(key, (k, n) -> n.decrementAndGet() == 0 ? null : n);
    }
}
