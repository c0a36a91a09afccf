package io.proofline.service.circuits;

import io.proofline.service.DataDirectory;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.OffHeapBuffer;
import io.proofline.engine.memory.Reservation;
import io.proofline.engine.RetryableException;
import io.proofline.engine.Stage;
import io.proofline.engine.groth16.Groth16Circuits;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.R1csReader;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CalculatorOptions;
import io.proofline.witness.CircomWitnessCalculator;
import io.proofline.witness.GraphMemory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Proving keys parsed into host memory, charged to the engine's {@link MemoryBudget} as {@link BufferClass#KEY_HOST}.
 * The engine's dispatcher admits a key together with the partition that needs it ({@link KeyResidency}): the key's
 * bytes are reserved in the same step as the partition's, the key is read on the synthesis thread when the
 * partition first asks for it, and it stays in use until every admitted partition of its circuit has finished.
 * Keys in no use are evicted when a partition at the head of the queue needs their memory (keys no queued work
 * needs first, least recently used first), after {@code proofline.memory.key-idle-timeout} unused, or when the
 * circuit is deleted; a closed key's copies on the devices are freed with it. A key whose loading failed holds its
 * reservation only until its partitions have ended.
 */
public final class KeyCache implements Groth16Circuits, KeyResidency {

    private static final Logger LOG = LoggerFactory.getLogger(KeyCache.class);

    private final DataDirectory data;
    private final MemoryBudget budget;
    private final BufferTracker tracker;
    private final Duration idleTimeout;
    /** Prepared verifying keys are a few KiB; the /verify endpoint may use many circuits' without proving. */
    static final int VERIFYING_KEYS = 64;
    /** A compiled calculator holds its module and instance memory on the heap (bounded by the sandbox's cap). */
    static final int CALCULATORS = 4;
    /** A constraint system is on the heap, a few tens of bytes per term: a large circuit's is hundreds of MiB. */
    static final int CONSTRAINT_SYSTEMS = 2;

    private final Map<String, Entry> entries = new HashMap<>();
    /** Whether a device builds the key's constraint rows on the host to upload them ({@link #reservedBytes}). */
    private final boolean rowsOnDevice;
    /** Each circuit's reserved key bytes once read: {@link #keyBytes} does no file I/O after the first time. */
    private final Map<String, Long> keySizes = new ConcurrentHashMap<>();
    private final CircuitSideCache<PreparedVerifyingKey> verifyingKeys = new CircuitSideCache<>(VERIFYING_KEYS);
    private final CalculatorOptions calculatorOptions;
    private final CircuitSideCache<Optional<CircomWitnessCalculator>> calculators =
            new CircuitSideCache<>(CALCULATORS, calculator -> calculator.ifPresent(CircomWitnessCalculator::close));
    private final CircuitSideCache<Optional<R1cs>> constraintSystems = new CircuitSideCache<>(CONSTRAINT_SYSTEMS);
    private final List<DeviceProverBackend> devices;

    /**
     * An admitted key: the budget it holds from admission on, its off-heap copy of the zkey once loaded (guarded by
     * the entry's monitor), and how many admitted partitions use it (guarded by the cache's monitor).
     */
    private final class Entry {
        final String circuitId;
        final Reservation reservation;
        ProvingKey key;
        OffHeapBuffer buffer;
        int uses;
        long lastUsedNanos = System.nanoTime();

        Entry(String circuitId, Reservation reservation) {
            this.circuitId = circuitId;
            this.reservation = reservation;
        }

        synchronized boolean isLoaded() {
            return key != null;
        }

        public synchronized void close() {
            if (key != null) {
                evictDeviceCopies(this);
                key.close();
                buffer.close();
            }
            reservation.close();
        }
    }

    /** A cached key as the console and metrics show it; {@code pins} counts the partitions using it. */
    public record CachedKey(String circuitId, long bytes, int pins, Duration idle) {
    }

    public KeyCache(DataDirectory data, MemoryBudget budget, BufferTracker tracker, Duration idleTimeout) {
        this(data, budget, tracker, idleTimeout, CalculatorOptions.defaults());
    }

    /** @param calculators the options (the sandbox) every witness calculator is loaded with */
    public KeyCache(DataDirectory data, MemoryBudget budget, BufferTracker tracker, Duration idleTimeout,
             CalculatorOptions calculators) {
        this(data, budget, tracker, idleTimeout, calculators, List.of());
    }

    /**
     * @param devices the backends that may hold a key's copy on their device: a key's copy is freed there when the
     *                key is closed here (its circuit deleted, or evicted from host memory: reloaded, it is a new
     *                object, and the device copy of the old one could never be used again)
     */
    public KeyCache(DataDirectory data, MemoryBudget budget, BufferTracker tracker, Duration idleTimeout,
             CalculatorOptions calculators, List<DeviceProverBackend> devices) {
        this.devices = List.copyOf(devices);
        this.rowsOnDevice = this.devices.stream().anyMatch(DeviceProverBackend::abcOnDevice);
        this.calculatorOptions = calculators;
        this.data = data;
        this.budget = budget;
        this.tracker = tracker;
        this.idleTimeout = idleTimeout;
    }

    /**
     * The bytes a loaded key of this circuit reserves ({@link #reservedBytes} of its zkey's size), read from the file
     * once and remembered: the
     * dispatcher asks on every admission attempt, and a file system that stalls must not stall admission (nor ever
     * be asked under this cache's lock). A circuit's id is its zkey's SHA-256, so the size never changes; a file found
     * otherwise when the key is read (replaced, broken) makes it read again ({@link #load}).
     *
     * @throws RetryableException when the zkey cannot be read now (the job runs again later)
     */
    @Override
    public long keyBytes(String circuitId) {
        Long known = keySizes.get(circuitId);
        if (known != null) {
            return known;
        }
        Path zkey = data.circuit(circuitId).resolve(CircuitService.ZKEY);
        BasicFileAttributes file;
        try {
            file = Files.readAttributes(zkey, BasicFileAttributes.class);
        } catch (NoSuchFileException gone) {
            throw new UncheckedIOException("the key of circuit " + circuitId + " is gone (the circuit was deleted)",
                    gone);
        } catch (IOException e) {
            throw new RetryableException("cannot read the key of circuit " + circuitId + ": " + e, e);
        }
        long bytes = reservedBytes(file.size());
        if (file.isRegularFile()) {
            keySizes.putIfAbsent(circuitId, bytes); // what is not a zkey file is looked at again next time
        }
        return bytes;
    }

    /**
     * What a key of a {@code zkeyBytes} zkey reserves: its off-heap copy, and where a device keeps constraint rows
     * (a/b/c evaluated on the GPU) as much again for the rows' host copy that each upload to a device builds
     * ({@code ConstraintRows.hostBytes}, never more than the zkey's size; one at a time per key), so that the upload
     * allocates nothing outside the budget.
     */
    long reservedBytes(long zkeyBytes) {
        return rowsOnDevice ? Math.multiplyExact(zkeyBytes, 2) : zkeyBytes;
    }

    @Override
    public long missingBytes(String circuitId) {
        long size = keyBytes(circuitId);
        synchronized (this) {
            return entries.containsKey(circuitId) ? 0 : size;
        }
    }

    @Override
    public Optional<KeyAdmission> tryAdmit(String circuitId, long partitionBytes, MemoryBudget from) {
        if (from != budget) {
            throw new IllegalArgumentException("the key cache draws from another budget than the engine");
        }
        long size = keyBytes(circuitId);
        synchronized (this) {
            Entry e = entries.get(circuitId);
            long keyBytes = e == null ? size : 0;
            Reservation both = budget.tryAcquire(Math.addExact(partitionBytes, keyBytes)).orElse(null);
            if (both == null) {
                return Optional.empty();
            }
            if (e == null) {
                e = new Entry(circuitId, both.split(keyBytes));
                entries.put(circuitId, e);
            }
            e.uses++;
            e.lastUsedNanos = System.nanoTime();
            Entry used = e;
            AtomicBoolean released = new AtomicBoolean();
            return Optional.of(new KeyAdmission(both, () -> {
                if (released.compareAndSet(false, true)) {
                    release(used);
                }
            }));
        }
    }

    /** A partition that used the key has ended; a key never loaded gives its bytes back with its last user. */
    private void release(Entry e) {
        synchronized (this) {
            e.uses--;
            e.lastUsedNanos = System.nanoTime();
            if (e.uses > 0 || e.isLoaded()) {
                return;
            }
            entries.remove(e.circuitId, e);
        }
        e.close();
    }

    /**
     * The circuit's key for an admitted partition, read from its zkey on first use.
     *
     * @throws RetryableException when reading the zkey fails (the job runs again later)
     */
    @Override
    public ProvingKey provingKey(String circuitId) {
        Entry e;
        synchronized (this) {
            e = entries.get(circuitId);
            if (e == null || e.uses == 0) {
                throw new IllegalStateException("the key of circuit " + circuitId + " is not admitted for a partition");
            }
            e.lastUsedNanos = System.nanoTime();
        }
        synchronized (e) {
            if (e.key == null) {
                load(e);
            }
            return e.key;
        }
    }

    @Override
    public PreparedVerifyingKey verifyingKey(String circuitId) {
        return verifyingKeys.get(circuitId, id -> {
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
        return calculators.get(circuitId, id -> {
            Path wasm = data.circuit(id).resolve(CircuitService.WASM);
            return Files.exists(wasm) ? Optional.of(CircomWitnessCalculator.load(wasm,
                    calculatorOptions.withGraphMemory(this::graphBlock))) : Optional.empty();
        });
    }

    /**
     * A witness graph's program: reserved from the budget (never waited for: without room the circuit's wasm computes
     * its witnesses) and counted as {@link BufferClass#KEY_HOST}, freed when the calculator is dropped.
     */
    private Optional<GraphMemory.Block> graphBlock(long bytes) {
        return budget.tryAcquire(bytes).map(reservation -> {
            OffHeapBuffer buffer;
            try {
                buffer = tracker.allocate(BufferClass.KEY_HOST, Stage.RESIDENT, bytes);
            } catch (RuntimeException | Error e) {
                reservation.close();
                throw e;
            }
            return new GraphMemory.Block() {
                @Override
                public MemorySegment segment() {
                    return buffer.segment();
                }

                @Override
                public void close() {
                    buffer.close();
                    reservation.close();
                }
            };
        });
    }

    @Override
    public Optional<R1cs> r1cs(String circuitId) {
        return constraintSystems.get(circuitId, id -> {
            Path r1cs = data.circuit(id).resolve(CircuitService.R1CS);
            try {
                return Files.exists(r1cs) ? Optional.of(R1csReader.read(r1cs)) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public long evictUnused(long bytesWanted, List<String> queuedCircuits) {
        String head = queuedCircuits.isEmpty() ? null : queuedCircuits.getFirst();
        List<Entry> evicted = new ArrayList<>();
        long freed = 0;
        synchronized (this) {
            // keys no queued partition needs (least recently used first), then the lowest priority's first
            Comparator<Entry> order = Comparator.<Entry>comparingInt(e -> -rank(queuedCircuits, e.circuitId))
                    .thenComparingLong(e -> e.lastUsedNanos);
            List<Entry> unused = entries.values().stream()
                    .filter(e -> e.uses == 0 && !e.circuitId.equals(head)).sorted(order).toList();
            for (Entry e : unused) {
                if (freed >= bytesWanted) {
                    break;
                }
                entries.remove(e.circuitId);
                freed += e.reservation.bytes();
                evicted.add(e);
                LOG.info("evicting the key of circuit {} ({} B) for a partition waiting for memory", e.circuitId,
                        e.reservation.bytes());
            }
        }
        evicted.forEach(this::dropEvicted);
        return freed;
    }

    /** Where the circuit stands in dispatch order; not queued ranks after every queued one. */
    private static int rank(List<String> queuedCircuits, String circuitId) {
        int at = queuedCircuits.indexOf(circuitId);
        return at < 0 ? Integer.MAX_VALUE : at;
    }

    /** Evicts keys unused for longer than the idle timeout. */
    public void evictExpired() {
        long now = System.nanoTime();
        List<Entry> evicted = new ArrayList<>();
        synchronized (this) {
            entries.entrySet().removeIf(e -> {
                boolean expired = e.getValue().uses == 0 && now - e.getValue().lastUsedNanos > idleTimeout.toNanos();
                if (expired) {
                    evicted.add(e.getValue());
                    LOG.info("evicting the idle key of circuit {}", e.getKey());
                }
                return expired;
            });
        }
        evicted.forEach(this::dropEvicted);
    }

    /** Evicts the circuit's key if no partition uses it (an admin action); whether it was cached and idle. */
    public boolean evict(String circuitId) {
        Entry e;
        synchronized (this) {
            e = entries.get(circuitId);
            if (e == null || e.uses > 0) {
                return false;
            }
            entries.remove(circuitId);
        }
        dropEvicted(e);
        return true;
    }

    /** Frees an evicted key and drops what is cached beside it: nothing of an unused circuit stays on the heap. */
    private void dropEvicted(Entry e) {
        e.close();
        verifyingKeys.drop(e.circuitId);
        calculators.drop(e.circuitId);
        constraintSystems.drop(e.circuitId);
    }

    /** Whether anything beside the proving key is cached for the circuit (tests). */
    boolean holdsSideData(String circuitId) {
        return verifyingKeys.contains(circuitId) || calculators.contains(circuitId)
                || constraintSystems.contains(circuitId);
    }

    /** Drops everything known about a deleted circuit. */
    public void forget(String circuitId) {
        evict(circuitId);
        keySizes.remove(circuitId);
        verifyingKeys.drop(circuitId);
        calculators.drop(circuitId);
        constraintSystems.drop(circuitId);
    }

    public synchronized List<CachedKey> cached() {
        long now = System.nanoTime();
        return entries.entrySet().stream().map(e -> new CachedKey(e.getKey(), e.getValue().reservation.bytes(),
                e.getValue().uses, Duration.ofNanos(now - e.getValue().lastUsedNanos))).toList();
    }

    /** Closes every key (at shutdown). */
    public synchronized void close() {
        entries.values().forEach(Entry::close);
        entries.clear();
        calculators.clear();
    }

    /** Frees the device copies of a key about to be closed; a device that fails to free it only logs. */
    private void evictDeviceCopies(Entry e) {
        for (DeviceProverBackend device : devices) {
            try {
                if (device.evict(e.key)) {
                    LOG.info("freed the {} device copy of the key of circuit {}", device.name(), e.circuitId);
                }
            } catch (RuntimeException failure) {
                LOG.warn("the {} device copy of the key of circuit {} could not be freed: {}", device.name(),
                        e.circuitId, failure.toString());
            }
        }
    }

    /** Reads the key into the entry's reservation; on any failure frees what it allocated and keeps none of it. */
    private void load(Entry e) {
        Path zkey = data.circuit(e.circuitId).resolve(CircuitService.ZKEY);
        // the reservation's other half, where devices keep rows, is for the rows' host copy of each upload
        long bytes = rowsOnDevice ? e.reservation.bytes() / 2 : e.reservation.bytes();
        OffHeapBuffer buffer = tracker.allocate(BufferClass.KEY_HOST, Stage.RESIDENT, bytes);
        try {
            if (Files.size(zkey) != bytes) {
                keySizes.remove(e.circuitId); // read again at the next admission
                throw new IOException(zkey + " changed size since it was admitted");
            }
            read(zkey, buffer.segment());
            // The upload was fully validated (subgroup checks included) when it was registered, and the id is
            // the SHA-256 of those bytes: re-checking only coordinates and curve equations keeps a reload fast.
            e.key = ZkeyReader.parse(buffer.segment(), e.circuitId.substring(0, 12) + ".zkey", null,
                    PointCheck.CURVE);
            e.buffer = buffer;
        } catch (FormatException corrupt) {
            buffer.close();
            throw new IllegalStateException("the stored key of circuit " + e.circuitId + " is corrupt: "
                    + corrupt.getMessage(), corrupt);
        } catch (IOException io) {
            buffer.close();
            throw new RetryableException("cannot read the key of circuit " + e.circuitId + ": " + io, io);
        } catch (RuntimeException | Error other) {
            buffer.close();
            throw other;
        }
        tracker.event("key " + e.circuitId + " loaded");
        LOG.info("loaded the key of circuit {} ({} B)", e.circuitId, bytes);
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
