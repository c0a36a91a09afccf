package io.proofline.algebra.poly;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The NTT twiddle tables {@code ω_N^j, j < N/2} of {@link Radix2Domain}s, off the heap, bounded in bytes and charged to
 * a {@link Budget} before they are computed. A table is 16·N bytes on a 4-limb field (256 MiB at 2^24), so it is a
 * large buffer like any other: a table is made only when its bytes fit under the cache's bound and the budget grants
 * them, tables in no use are evicted least recently used first (to make room for another, or when the owner of the
 * budget needs the memory: {@link #evictUnused}), and a transform that gets no table computes its twiddles as it
 * goes (one more multiplication per butterfly in the stages past the in-cache blocks) instead of waiting, so a
 * transform never waits for memory that a waiting partition holds.
 *
 * <p>Which cache a transform uses is {@link #current()}: the one bound to {@link #CURRENT} by the caller (the
 * proving engine binds its own, charged to its memory budget), else a process-wide one without a budget, for the
 * CLI and tests.
 */
public final class TwiddleCache implements AutoCloseable {

    /** Grants bytes for a table; the engine's budget and buffer table. */
    @FunctionalInterface
    public interface Budget {
        /** A budget that grants everything (the ungoverned cache): the cache's bound is the only limit. */
        Budget UNLIMITED = bytes -> Optional.of(() -> { });

        /** Reserves {@code bytes} if they are free now, never waiting; the charge gives them back when closed. */
        Optional<Charge> tryCharge(long bytes);
    }

    /** Bytes granted for one table, given back once. */
    @FunctionalInterface
    public interface Charge extends AutoCloseable {
        @Override
        void close();
    }

    /** The cache transforms on this thread use; unbound: {@link #ungoverned()}. */
    public static final ScopedValue<TwiddleCache> CURRENT = ScopedValue.newInstance();

    /** The ungoverned cache's bound: the two largest domains a CPU proof of up to 2^24 constraints needs. */
    public static final long UNGOVERNED_MAX_BYTES = 512L << 20;

    private static final class Ungoverned {
        static final TwiddleCache CACHE = new TwiddleCache(UNGOVERNED_MAX_BYTES, Budget.UNLIMITED);
    }

    private record Key(PrimeField field, int log) {
    }

    /** One table: its memory, its charge, and the leases using it (guarded by the cache's monitor). */
    private static final class Entry {
        final Key key;
        final long bytes;
        final Arena arena;
        final MemorySegment table;
        final Charge charge;
        int uses;
        long lastUsedNanos;
        boolean computed;
        boolean evicted;

        Entry(Key key, long bytes, Charge charge) {
            this.key = key;
            this.bytes = bytes;
            this.charge = charge;
            this.arena = Arena.ofShared();
            MemorySegment segment;
            try {
                segment = arena.allocate(bytes, 64);
            } catch (RuntimeException | OutOfMemoryError e) {
                arena.close();
                throw e;
            }
            this.table = segment;
        }

        void free() {
            arena.close();
            charge.close();
        }
    }

    /** A table in use: it is not evicted until the lease is closed. */
    public final class Lease implements AutoCloseable {
        private final Entry entry;
        private boolean closed;

        private Lease(Entry entry) {
            this.entry = entry;
        }

        /** {@code ω_N^j} for {@code j < N/2}, Montgomery limbs, flat (read only). */
        public MemorySegment table() {
            return entry.table;
        }

        @Override
        public void close() {
            synchronized (TwiddleCache.this) {
                if (closed) {
                    return;
                }
                closed = true;
                entry.uses--;
                entry.lastUsedNanos = System.nanoTime();
                if (entry.uses == 0 && entry.evicted) {
                    entry.free();
                }
            }
        }
    }

    private final long maxBytes;
    private final Budget budget;
    private final Map<Key, Entry> entries = new HashMap<>();
    private long bytes;
    private long made;
    private long refused;
    private boolean closed;

    /**
     * @param maxBytes the most bytes the tables may hold together
     * @param budget   what grants each table's bytes before it is made
     */
    public TwiddleCache(long maxBytes, Budget budget) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("negative bound: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /** The cache bound to {@link #CURRENT}, else the process-wide ungoverned one. */
    public static TwiddleCache current() {
        return CURRENT.orElse(ungoverned());
    }

    /** The process-wide cache without a budget (CLI, tests, setup). */
    public static TwiddleCache ungoverned() {
        return Ungoverned.CACHE;
    }

    /** The bytes of the table of a domain of size {@code 2^log} over {@code field}. */
    public static long tableBytes(PrimeField field, int log) {
        return Math.multiplyExact((1L << log) / 2, 8L * field.limbs());
    }

    /**
     * The table of the domain of size {@code 2^log} over {@code field}, computed now if it is not cached; empty when
     * its bytes do not fit the bound or the budget even after evicting the tables in no use.
     */
    public Optional<Lease> acquire(PrimeField field, int log) {
        Key key = new Key(field, log);
        long size = tableBytes(field, log);
        Entry entry;
        synchronized (this) {
            entry = entries.get(key);
            if (entry == null) {
                entry = make(key, size);
                if (entry == null) {
                    refused++;
                    return Optional.empty();
                }
            }
            entry.uses++;
            entry.lastUsedNanos = System.nanoTime();
        }
        Lease lease = new Lease(entry);
        try {
            compute(entry);
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                if (entries.remove(key, entry)) {
                    bytes -= entry.bytes;
                }
                entry.evicted = true;
            }
            lease.close();
            throw e;
        }
        return Optional.of(lease);
    }

    /**
     * Under the monitor: a new entry, room made for it under the bound and in the budget (tables in no use freed
     * first); null when there is none.
     */
    private Entry make(Key key, long size) {
        if (closed || size > maxBytes) {
            return null;
        }
        // freed before the new table exists: the bound holds for the memory, not only for the count
        freeAll(evict(bytes + size - maxBytes));
        if (bytes + size > maxBytes) {
            return null; // the tables in use fill the bound
        }
        Optional<Charge> charge = budget.tryCharge(size);
        if (charge.isEmpty()) {
            // the budget is short: give back what the unused tables hold and ask once more
            freeAll(evict(Long.MAX_VALUE));
            charge = budget.tryCharge(size);
        }
        if (charge.isEmpty()) {
            return null;
        }
        Entry e;
        try {
            e = new Entry(key, size, charge.get());
        } catch (RuntimeException | OutOfMemoryError oom) {
            charge.get().close();
            throw oom;
        }
        entries.put(key, e);
        bytes += size;
        made++;
        return e;
    }

    /** Fills the table once; later leases wait for the first one's computation. */
    private static void compute(Entry e) {
        synchronized (e) {
            if (e.computed) {
                return;
            }
            PrimeField field = e.key.field();
            int limbs = field.limbs();
            long[] omega = Radix2Domain.rootOfUnity(field, 1L << e.key.log());
            MemorySegment table = e.table;
            ParallelRange.forEach((1L << e.key.log()) / 2, 1 << 12, (from, to) -> {
                long[] power = new long[limbs];
                field.pow(omega, 0, BigInteger.valueOf(from), power, 0);
                long stride = 8L * limbs;
                for (long j = from; j < to; j++) {
                    MemorySegment.copy(power, 0, table, FieldVector.LIMB, j * stride, limbs);
                    field.mul(power, 0, omega, 0, power, 0);
                }
            });
            e.computed = true;
        }
    }

    /**
     * Evicts tables in no use, least recently used first, until at least {@code bytesWanted} went back or none is
     * left.
     *
     * @return the bytes given back
     */
    public synchronized long evictUnused(long bytesWanted) {
        List<Entry> evicted = evict(bytesWanted);
        freeAll(evicted);
        return evicted.stream().mapToLong(e -> e.bytes).sum();
    }

    /** Under the monitor: takes unused tables out until {@code bytesWanted} are out; the caller frees them. */
    private List<Entry> evict(long bytesWanted) {
        List<Entry> out = new ArrayList<>();
        if (bytesWanted <= 0) {
            return out;
        }
        List<Entry> unused = entries.values().stream().filter(e -> e.uses == 0)
                .sorted(Comparator.comparingLong(e -> e.lastUsedNanos)).toList();
        long freed = 0;
        for (Entry e : unused) {
            if (freed >= bytesWanted) {
                break;
            }
            entries.remove(e.key);
            e.evicted = true;
            bytes -= e.bytes;
            freed += e.bytes;
            out.add(e);
        }
        return out;
    }

    private static void freeAll(List<Entry> entries) {
        for (Entry e : entries) {
            e.free();
        }
    }

    /** The bytes the cached tables hold (in use or not). */
    public synchronized long bytes() {
        return bytes;
    }

    /** The tables cached now. */
    public synchronized int tables() {
        return entries.size();
    }

    /** Tables made so far (a table evicted and made again counts twice). */
    public synchronized long made() {
        return made;
    }

    /** Requests that got no table (bound or budget short) and computed their twiddles as they went. */
    public synchronized long refused() {
        return refused;
    }

    public long maxBytes() {
        return maxBytes;
    }

    /**
     * Frees every table in no use and makes no new ones; a table in use is freed when its last lease is closed, so
     * every charge is given back once the transforms running now end.
     */
    @Override
    public synchronized void close() {
        closed = true;
        for (Entry e : List.copyOf(entries.values())) {
            entries.remove(e.key);
            e.evicted = true;
            bytes -= e.bytes;
            if (e.uses == 0) {
                e.free();
            }
        }
    }
}
