package io.proofline.service.circuits;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@link KeyCache} keeps beside a circuit's proving key (its verifying key, witness calculator, constraint
 * system), on the heap: at most {@code capacity} circuits' worth, least recently used dropped first, and a circuit's
 * entry dropped with its proving key. Without the bound a service that has seen many circuits would keep all of
 * their constraint systems and calculators until the heap runs out. A value is made outside the lock (reading an
 * r1cs or compiling a wasm takes a while and must not hold up other circuits); two threads that both miss may both
 * make one, and the first kept wins.
 *
 * @param <V> the cached value
 */
final class CircuitSideCache<V> {

    private final int capacity;
    private final LinkedHashMap<String, V> entries;

    CircuitSideCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > CircuitSideCache.this.capacity;
            }
        };
    }

    /** The circuit's value, made by {@code load} where it is not cached. */
    V get(String circuitId, Function<String, V> load) {
        synchronized (this) {
            V cached = entries.get(circuitId);
            if (cached != null) {
                return cached;
            }
        }
        V made = load.apply(circuitId);
        synchronized (this) {
            V raced = entries.putIfAbsent(circuitId, made);
            return raced != null ? raced : made;
        }
    }

    /** Drops the circuit's value (its key was evicted, or the circuit deleted). */
    synchronized void drop(String circuitId) {
        entries.remove(circuitId);
    }

    synchronized int size() {
        return entries.size();
    }

    synchronized boolean contains(String circuitId) {
        return entries.containsKey(circuitId);
    }
}
