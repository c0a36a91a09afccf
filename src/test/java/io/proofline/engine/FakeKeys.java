package io.proofline.engine;

import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.Reservation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A key cache for engine tests with the service's {@code KeyCache} semantics and no files: per circuit a key size;
 * a key is reserved with the partition that admits it, "loaded" when a partition first asks for it (where a test
 * can inject an I/O error), in use while admitted partitions are unfinished, and evictable when in no use. Evicting
 * can be made to throw, as a broken cache would.
 */
final class FakeKeys implements KeyResidency {

    private final Map<String, Long> sizes;
    private final Map<String, Entry> entries = new HashMap<>();
    /** Reads left that fail with an I/O error, and how many evictions shall throw. */
    final AtomicInteger failingLoads = new AtomicInteger();
    final AtomicInteger failingEvictions = new AtomicInteger();
    final List<String> evicted = new CopyOnWriteArrayList<>();
    final List<String> violations = new CopyOnWriteArrayList<>();

    private static final class Entry {
        final String circuit;
        final Reservation reservation;
        boolean loaded;
        int uses;
        long lastUsed = System.nanoTime();

        Entry(String circuit, Reservation reservation) {
            this.circuit = circuit;
            this.reservation = reservation;
        }
    }

    FakeKeys(Map<String, Long> sizes) {
        this.sizes = Map.copyOf(sizes);
    }

    @Override
    public long keyBytes(String circuitId) {
        return sizes.getOrDefault(circuitId, 0L);
    }

    @Override
    public synchronized long missingBytes(String circuitId) {
        return entries.containsKey(circuitId) ? 0 : keyBytes(circuitId);
    }

    @Override
    public synchronized Optional<KeyAdmission> tryAdmit(String circuitId, long partitionBytes, MemoryBudget budget) {
        Entry e = entries.get(circuitId);
        long key = e == null ? keyBytes(circuitId) : 0;
        Optional<Reservation> both = budget.tryAcquire(partitionBytes + key);
        if (both.isEmpty()) {
            return Optional.empty();
        }
        if (e == null) {
            e = new Entry(circuitId, both.get().split(key));
            entries.put(circuitId, e);
        }
        e.uses++;
        Entry used = e;
        boolean[] released = {false};
        return Optional.of(new KeyAdmission(both.get(), () -> {
            synchronized (this) {
                if (released[0]) {
                    violations.add("key use of " + circuitId + " released twice");
                    return;
                }
                released[0] = true;
                used.uses--;
                used.lastUsed = System.nanoTime();
                if (used.uses == 0 && !used.loaded) {
                    entries.remove(circuitId, used);
                    used.reservation.close();
                }
            }
        }));
    }

    /** What a partition's synthesis does first: gets its circuit's key, reading it on first use. */
    synchronized void use(String circuitId) throws IOException {
        Entry e = entries.get(circuitId);
        if (e == null || e.uses == 0) {
            violations.add("the key of " + circuitId + " was used without being admitted");
            throw new IllegalStateException("not admitted: " + circuitId);
        }
        if (!e.loaded) {
            if (failingLoads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IOException("injected I/O error reading the key of " + circuitId);
            }
            e.loaded = true;
        }
        e.lastUsed = System.nanoTime();
    }

    @Override
    public long evictUnused(long bytesWanted, List<String> queuedCircuits) {
        if (failingEvictions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("injected failure while evicting");
        }
        String head = queuedCircuits.isEmpty() ? null : queuedCircuits.getFirst();
        List<Entry> gone = new ArrayList<>();
        long freed = 0;
        synchronized (this) {
            List<Entry> unused = entries.values().stream().filter(e -> e.uses == 0 && !e.circuit.equals(head))
                    .sorted(Comparator.comparingLong(e -> e.lastUsed)).toList();
            for (Entry e : unused) {
                if (freed >= bytesWanted) {
                    break;
                }
                entries.remove(e.circuit);
                freed += e.reservation.bytes();
                gone.add(e);
            }
        }
        gone.forEach(e -> {
            evicted.add(e.circuit);
            e.reservation.close();
        });
        return freed;
    }

    synchronized List<String> resident() {
        return List.copyOf(entries.keySet());
    }

    synchronized int uses() {
        return entries.values().stream().mapToInt(e -> e.uses).sum();
    }
}
