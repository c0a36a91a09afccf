package io.proofline.service;

import io.proofline.engine.BufferClass;
import io.proofline.engine.BufferTracker;
import io.proofline.engine.KeyEvictor;
import io.proofline.engine.MemoryBudget;
import io.proofline.engine.OffHeapBuffer;
import io.proofline.engine.Reservation;
import io.proofline.engine.Stage;
import io.proofline.engine.groth16.Groth16Circuits;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.R1csReader;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CalculatorOptions;
import io.proofline.witness.CircomWitnessCalculator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Proving keys parsed into host memory on first use, charged to the engine's {@link MemoryBudget} as
 * {@link BufferClass#KEY_HOST} and evicted least recently used first: by the engine's dispatcher before it blocks
 * for memory ({@link KeyEvictor}), after {@code proofline.memory.key-idle-timeout} unused, or when the circuit is
 * deleted. A key is pinned while a job of its circuit runs, and a pinned key is never evicted.
 */
public final class KeyCache implements Groth16Circuits, KeyEvictor {

    private static final Logger LOG = LoggerFactory.getLogger(KeyCache.class);
    /** How long a job waits for the budget to hold its key before it fails (partitions release memory meanwhile). */
    private static final Duration LOAD_WAIT = Duration.ofMinutes(10);

    private final DataDirectory data;
    private final MemoryBudget budget;
    private final BufferTracker tracker;
    private final Duration idleTimeout;
    private final Map<String, Entry> entries = new HashMap<>();
    private final Map<String, Object> loadLocks = new ConcurrentHashMap<>();
    private final Map<String, PreparedVerifyingKey> verifyingKeys = new ConcurrentHashMap<>();
    private final CalculatorOptions calculatorOptions;
    private final Map<String, Optional<CircomWitnessCalculator>> calculators = new ConcurrentHashMap<>();
    private final Map<String, Optional<R1cs>> constraintSystems = new ConcurrentHashMap<>();

    /** A loaded key: its off-heap copy of the zkey, the budget it holds, who uses it. */
    private static final class Entry {
        final ProvingKey key;
        final OffHeapBuffer buffer;
        final Reservation reservation;
        int pins;
        long lastUsedNanos = System.nanoTime();

        Entry(ProvingKey key, OffHeapBuffer buffer, Reservation reservation) {
            this.key = key;
            this.buffer = buffer;
            this.reservation = reservation;
        }

        void close() {
            key.close();
            buffer.close();
            reservation.close();
        }
    }

    /** A cached key as the console and metrics show it. */
    public record CachedKey(String circuitId, long bytes, int pins, Duration idle) {
    }

    KeyCache(DataDirectory data, MemoryBudget budget, BufferTracker tracker, Duration idleTimeout) {
        this(data, budget, tracker, idleTimeout, CalculatorOptions.defaults());
    }

    /** @param calculators the options (the sandbox) every witness calculator is loaded with */
    KeyCache(DataDirectory data, MemoryBudget budget, BufferTracker tracker, Duration idleTimeout,
             CalculatorOptions calculators) {
        this.calculatorOptions = calculators;
        this.data = data;
        this.budget = budget;
        this.tracker = tracker;
        this.idleTimeout = idleTimeout;
    }

    /** The bytes a loaded key of this circuit holds (its zkey's size). */
    long keyBytes(String circuitId) {
        try {
            return Files.size(data.circuit(circuitId).resolve(CircuitService.ZKEY));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Loads the circuit's key if needed and keeps it loaded until {@link #unpin}. Waits for budget (evicting idle
     * keys first) while running partitions release theirs.
     */
    void pin(String circuitId) throws IOException, InterruptedException {
        synchronized (loadLocks.computeIfAbsent(circuitId, id -> new Object())) {
            synchronized (this) {
                Entry e = entries.get(circuitId);
                if (e != null) {
                    e.pins++;
                    e.lastUsedNanos = System.nanoTime();
                    return;
                }
            }
            Entry loaded = load(circuitId);
            synchronized (this) {
                loaded.pins = 1;
                entries.put(circuitId, loaded);
            }
        }
    }

    synchronized void unpin(String circuitId) {
        Entry e = entries.get(circuitId);
        if (e != null && e.pins > 0) {
            e.pins--;
            e.lastUsedNanos = System.nanoTime();
        }
    }

    @Override
    public synchronized ProvingKey provingKey(String circuitId) {
        Entry e = entries.get(circuitId);
        if (e == null || e.pins == 0) {
            throw new IllegalStateException("the key of circuit " + circuitId + " is not pinned by a running job");
        }
        e.lastUsedNanos = System.nanoTime();
        return e.key;
    }

    @Override
    public PreparedVerifyingKey verifyingKey(String circuitId) {
        return verifyingKeys.computeIfAbsent(circuitId, id -> {
            try {
                return PreparedVerifyingKey.prepare(
                        VerificationKeyJson.read(data.circuit(id).resolve(CircuitService.VKEY)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public Optional<CircomWitnessCalculator> witnessCalculator(String circuitId) {
        return calculators.computeIfAbsent(circuitId, id -> {
            Path wasm = data.circuit(id).resolve(CircuitService.WASM);
            return Files.exists(wasm) ? Optional.of(CircomWitnessCalculator.load(wasm, calculatorOptions)) : Optional.empty();
        });
    }

    @Override
    public Optional<R1cs> r1cs(String circuitId) {
        return constraintSystems.computeIfAbsent(circuitId, id -> {
            Path r1cs = data.circuit(id).resolve(CircuitService.R1CS);
            try {
                return Files.exists(r1cs) ? Optional.of(R1csReader.read(r1cs)) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public long evictIdle(long bytesWanted) {
        List<Entry> evicted = new ArrayList<>();
        long freed = 0;
        synchronized (this) {
            List<Map.Entry<String, Entry>> idle = entries.entrySet().stream().filter(e -> e.getValue().pins == 0)
                    .sorted(Comparator.comparingLong(e -> e.getValue().lastUsedNanos)).toList();
            for (Map.Entry<String, Entry> e : idle) {
                if (freed >= bytesWanted) {
                    break;
                }
                entries.remove(e.getKey());
                freed += e.getValue().reservation.bytes();
                evicted.add(e.getValue());
                LOG.info("evicting the key of circuit {} ({} B) for memory", e.getKey(), e.getValue().buffer.bytes());
            }
        }
        evicted.forEach(Entry::close);
        return freed;
    }

    /** Evicts keys unused for longer than the idle timeout. */
    void evictExpired() {
        long now = System.nanoTime();
        List<Entry> evicted = new ArrayList<>();
        synchronized (this) {
            entries.entrySet().removeIf(e -> {
                boolean expired = e.getValue().pins == 0 && now - e.getValue().lastUsedNanos > idleTimeout.toNanos();
                if (expired) {
                    evicted.add(e.getValue());
                    LOG.info("evicting the idle key of circuit {}", e.getKey());
                }
                return expired;
            });
        }
        evicted.forEach(Entry::close);
    }

    /** Evicts the circuit's key if no job uses it (an admin action); whether it was cached and idle. */
    public boolean evict(String circuitId) {
        Entry e;
        synchronized (this) {
            e = entries.get(circuitId);
            if (e == null || e.pins > 0) {
                return false;
            }
            entries.remove(circuitId);
        }
        e.close();
        return true;
    }

    /** Drops everything known about a deleted circuit. */
    void forget(String circuitId) {
        evict(circuitId);
        verifyingKeys.remove(circuitId);
        calculators.remove(circuitId);
        constraintSystems.remove(circuitId);
    }

    public synchronized List<CachedKey> cached() {
        long now = System.nanoTime();
        return entries.entrySet().stream().map(e -> new CachedKey(e.getKey(), e.getValue().buffer.bytes(),
                e.getValue().pins, Duration.ofNanos(now - e.getValue().lastUsedNanos))).toList();
    }

    /** Closes every key (at shutdown). */
    synchronized void close() {
        entries.values().forEach(Entry::close);
        entries.clear();
    }

    private Entry load(String circuitId) throws IOException, InterruptedException {
        Path zkey = data.circuit(circuitId).resolve(CircuitService.ZKEY);
        long bytes = Files.size(zkey);
        if (!budget.canEverFit(bytes)) {
            throw new IOException("the key of circuit " + circuitId + " (" + bytes
                    + " B) is larger than the whole memory budget (" + budget.total() + " B)");
        }
        Reservation reservation = budget.tryAcquire(bytes).orElse(null);
        if (reservation == null) {
            evictIdle(bytes - budget.available());
            reservation = budget.acquire(bytes, LOAD_WAIT).orElseThrow(() -> new IOException(
                    "no memory for the key of circuit " + circuitId + " within " + LOAD_WAIT));
        }
        OffHeapBuffer buffer = null;
        try {
            buffer = tracker.allocate(BufferClass.KEY_HOST, Stage.RESIDENT, bytes);
            read(zkey, buffer.segment());
            // The upload was fully validated (subgroup checks included) when it was registered, and the id is
            // the SHA-256 of those bytes: re-checking only coordinates and curve equations keeps a reload fast.
            ProvingKey key = ZkeyReader.parse(buffer.segment(), circuitId.substring(0, 12) + ".zkey", null,
                    PointCheck.CURVE);
            tracker.event("key " + circuitId + " loaded");
            LOG.info("loaded the key of circuit {} ({} B)", circuitId, bytes);
            return new Entry(key, buffer, reservation);
        } catch (FormatException | RuntimeException | Error e) {
            if (buffer != null) {
                buffer.close();
            }
            reservation.close();
            throw e;
        }
    }

    /** Reads the file into the segment in chunks (a ByteBuffer view holds at most 2 GiB). */
    private static void read(Path file, MemorySegment target) throws IOException {
        long chunk = 1L << 30;
        try (FileChannel channel = FileChannel.open(file)) {
            for (long off = 0; off < target.byteSize(); ) {
                long len = Math.min(chunk, target.byteSize() - off);
                var view = target.asSlice(off, len).asByteBuffer();
                while (view.hasRemaining()) {
                    if (channel.read(view, off + view.position()) < 0) {
                        throw new IOException(file + " is shorter than expected");
                    }
                }
                off += len;
            }
        }
    }
}
