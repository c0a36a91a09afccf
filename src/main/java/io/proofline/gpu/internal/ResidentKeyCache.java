package io.proofline.gpu.internal;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The proving keys resident on one device ({@code KEY_DEVICE}, DESIGN §3): uploaded once per (device, key) and kept
 * while they fit a byte budget. Keys are told apart by identity (one parsed key object per circuit, as the service's
 * key cache hands them out). A key in use is pinned by its {@link Lease}; to make room for a new key the least
 * recently used idle keys are freed first, and when the idle ones do not free enough, {@link #acquire} fails rather
 * than evict a key that a proof is reading.
 *
 * <p>Generic in what is resident so that its bookkeeping is tested without a GPU. Thread-safe; a load runs under the
 * cache's lock (one upload at a time per device, which the copy engine serializes anyway).
 *
 * @param <K> the key object (identity)
 * @param <V> its device-resident copy, freed by {@link AutoCloseable#close()}
 */
public final class ResidentKeyCache<K, V extends AutoCloseable> implements AutoCloseable {

    /** Thrown when a key cannot be made resident within the budget. */
    public static final class BudgetExceededException extends RuntimeException {
        private final boolean everFits;

        BudgetExceededException(String message, boolean everFits) {
            super(message);
            this.everFits = everFits;
        }

        /** Whether the key would fit once keys in use are released; false when it alone exceeds the budget. */
        public boolean everFits() {
            return everFits;
        }
    }

    /** A pinned resident key; closing it unpins (the key stays resident until evicted). */
    public interface Lease<V> extends AutoCloseable {
        V value();

        @Override
        void close();
    }

    private record Identity(Object key) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity other && other.key == key;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(key);
        }
    }

    private static final class Entry<V> {
        final V value;
        final long bytes;
        int pins;

        Entry(V value, long bytes) {
            this.value = value;
            this.bytes = bytes;
        }
    }

    private final long budgetBytes;
    /** Access order: the first entry is the least recently used. */
    private final LinkedHashMap<Identity, Entry<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long residentBytes;

    public ResidentKeyCache(long budgetBytes) {
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("device key budget of " + budgetBytes + " bytes");
        }
        this.budgetBytes = budgetBytes;
    }

    /**
     * The resident copy of {@code key}, loading it with {@code load} (which must return {@code bytes} bytes' worth)
     * when absent, after evicting idle keys, least recently used first, until it fits.
     *
     * @throws BudgetExceededException when {@code bytes} exceeds the budget, or the pinned keys leave too little
     */
    public synchronized Lease<V> acquire(K key, long bytes, Supplier<V> load) {
        Identity id = new Identity(key);
        Entry<V> entry = entries.get(id);
        if (entry == null) {
            if (bytes > budgetBytes) {
                throw new BudgetExceededException("a key of " + bytes + " bytes exceeds the device key budget of "
                        + budgetBytes + " bytes", false);
            }
            evictIdleUntilFree(bytes);
            entry = new Entry<>(load.get(), bytes);
            entries.put(id, entry);
            residentBytes += bytes;
        }
        entry.pins++;
        Entry<V> pinned = entry;
        return new Lease<>() {
            private boolean closed;

            @Override
            public V value() {
                return pinned.value;
            }

            @Override
            public void close() {
                synchronized (ResidentKeyCache.this) {
                    if (!closed) {
                        closed = true;
                        pinned.pins--;
                    }
                }
            }
        };
    }

    private void evictIdleUntilFree(long bytes) {
        Iterator<Map.Entry<Identity, Entry<V>>> it = entries.entrySet().iterator();
        while (residentBytes + bytes > budgetBytes && it.hasNext()) {
            Entry<V> e = it.next().getValue();
            if (e.pins == 0) {
                it.remove();
                free(e);
            }
        }
        if (residentBytes + bytes > budgetBytes) {
            throw new BudgetExceededException("a key of " + bytes + " bytes does not fit the device key budget of "
                    + budgetBytes + " bytes: " + residentBytes + " bytes are held by keys in use", true);
        }
    }

    /** Frees {@code key}'s resident copy if it is resident and idle; returns whether it was freed. */
    public synchronized boolean evict(K key) {
        Entry<V> e = entries.get(new Identity(key));
        if (e == null || e.pins > 0) {
            return false;
        }
        entries.remove(new Identity(key));
        free(e);
        return true;
    }

    public synchronized boolean isResident(K key) {
        return entries.containsKey(new Identity(key));
    }

    public synchronized long residentBytes() {
        return residentBytes;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    public synchronized int size() {
        return entries.size();
    }

    private void free(Entry<V> e) {
        residentBytes -= e.bytes;
        try {
            e.value.close();
        } catch (RuntimeException ex) {
            throw ex;
        } catch (Exception ex) {
            throw new IllegalStateException("freeing a resident key failed: " + ex.getMessage(), ex);
        }
    }

    /** Frees every resident key, pinned or not (the device is going away). */
    @Override
    public synchronized void close() {
        List<Entry<V>> all = new ArrayList<>(entries.values());
        entries.clear();
        for (Entry<V> e : all) {
            free(e);
        }
    }
}
