package io.proofline.service.circuits;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
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
    private final Consumer<V> onDrop;

    CircuitSideCache(int capacity) {
        this(capacity, value -> { });
    }

    /** @param onDrop frees what a value holds beyond the heap, when the cache lets it go (a witness graph's memory) */
    CircuitSideCache(int capacity, Consumer<V> onDrop) {
        this.onDrop = onDrop;
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                if (size() > CircuitSideCache.this.capacity) {
                    onDrop.accept(eldest.getValue());
                    return true;
                }
                return false;
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
            if (raced != null) {
                onDrop.accept(made);
                return raced;
            }
            return made;
        }
    }

    /** Drops the circuit's value (its key was evicted, or the circuit deleted). */
    synchronized void drop(String circuitId) {
        V dropped = entries.remove(circuitId);
        if (dropped != null) {
            onDrop.accept(dropped);
        }
    }

    /** Drops every value (at shutdown). */
    synchronized void clear() {
        entries.values().forEach(onDrop);
        entries.clear();
    }

    synchronized int size() {
        return entries.size();
    }

    synchronized boolean contains(String circuitId) {
        return entries.containsKey(circuitId);
    }
}
