package io.proofline.engine.pipeline;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the engine remembers of finished jobs, bounded by bytes: entries in the order they finished, each with its
 * heap size; adding one forgets the oldest until the total is within the cap again. An entry larger than the cap by
 * itself is not kept. Thread-safe (one lock: every call is a few map operations).
 *
 * @param <K> the job's id
 * @param <V> what is kept of it
 */
final class FinishedJobs<K, V> {

    private record Entry<K, V>(K key, V value, long bytes) {
    }

    private final long capBytes;
    private final Map<K, Entry<K, V>> byKey = new HashMap<>();
    private final ArrayDeque<Entry<K, V>> order = new ArrayDeque<>();
    private long bytes;

    FinishedJobs(long capBytes) {
        if (capBytes <= 0) {
            throw new IllegalArgumentException("the finished jobs' cap must be positive: " + capBytes);
        }
        this.capBytes = capBytes;
    }

    /**
     * Keeps {@code value} of {@code key}, {@code valueBytes} on the heap, forgetting the oldest entries as needed.
     *
     * @return whether it is kept (false when it alone exceeds the cap)
     */
    synchronized boolean add(K key, V value, long valueBytes) {
        Objects.requireNonNull(key, "key");
        if (valueBytes < 0) {
            throw new IllegalArgumentException("negative size " + valueBytes);
        }
        Entry<K, V> replaced = byKey.remove(key);
        if (replaced != null) {
            order.remove(replaced);
            bytes -= replaced.bytes();
        }
        if (valueBytes > capBytes) {
            return false;
        }
        while (bytes + valueBytes > capBytes) {
            Entry<K, V> oldest = order.pollFirst();
            byKey.remove(oldest.key());
            bytes -= oldest.bytes();
        }
        Entry<K, V> entry = new Entry<>(key, value, valueBytes);
        order.addLast(entry);
        byKey.put(key, entry);
        bytes += valueBytes;
        return true;
    }

    synchronized Optional<V> get(K key) {
        Entry<K, V> e = byKey.get(key);
        return e == null ? Optional.empty() : Optional.of(e.value());
    }

    /** The bytes kept now, at most {@link #capBytes()}. */
    synchronized long bytes() {
        return bytes;
    }

    synchronized int size() {
        return byKey.size();
    }

    long capBytes() {
        return capBytes;
    }
}
