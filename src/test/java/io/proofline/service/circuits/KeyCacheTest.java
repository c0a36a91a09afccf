package io.proofline.service.circuits;

import io.proofline.service.DataDirectory;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.Reservation;
import io.proofline.engine.RetryableException;
import io.proofline.engine.Stage;
import io.proofline.snark.ProvingKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The proving-key cache on real snarkjs keys (the mul3 fixtures): what an admission reserves (key and partition in one
 * step) and loads, which keys eviction takes (unused ones, never the head's; keys no queued work needs first, least
 * recently used first, then the lowest priority's) and what it gives back, also when reading a key fails.
 */
public class KeyCacheTest {

    public static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");
    static final String A = "a".repeat(64);
    static final String B = "b".repeat(64);
    static final String C = "c".repeat(64);

    @TempDir
    Path dir;
    DataDirectory data;
    BufferTracker tracker;
    long keyBytes;

    @BeforeEach
    void circuits() throws IOException {
        data = new DataDirectory(dir);
        tracker = new BufferTracker();
        for (String id : new String[]{A, B, C}) {
            Path circuit = Files.createDirectories(data.circuit(id));
            Files.copy(MUL3.resolve("bn128/circuit.zkey"), circuit.resolve(CircuitService.ZKEY));
            Files.copy(MUL3.resolve("bn128/verification_key.json"), circuit.resolve(CircuitService.VKEY));
        }
        Files.copy(MUL3.resolve("bn128/circuit.r1cs"), data.circuit(A).resolve(CircuitService.R1CS));
        keyBytes = Files.size(MUL3.resolve("bn128/circuit.zkey"));
    }

    MemoryBudget budget;
    KeyCache cache;

    @AfterEach
    void close() {
        if (cache != null) {
            cache.close();
        }
    }

    /** A cache over a budget of {@code budgetBytes}, both in the fields. */
    void cache(long budgetBytes, Duration idleTimeout) {
        budget = new MemoryBudget(budgetBytes);
        cache = new KeyCache(data, budget, tracker, idleTimeout);
    }

    /** Admits a partition of {@code bytes} with the circuit's key, which must fit now. */
    KeyAdmission admit(String id, long bytes) {
        return cache.tryAdmit(id, bytes, budget).orElseThrow(() -> new AssertionError("no room for " + id));
    }

    /** A partition that used the key has ended. */
    static void end(KeyAdmission admission) {
        admission.partition().close();
        admission.releaseKey().run();
    }

    @Test
    void anAdmissionReservesTheKeyWithItsPartitionAndTheKeyIsReadOnFirstUse() {
        cache(10 * keyBytes, Duration.ofHours(1));
        assertThat(cache.keyBytes(A)).isEqualTo(keyBytes);
        assertThat(cache.missingBytes(A)).isEqualTo(keyBytes);

        KeyAdmission first = admit(A, 100);
        assertThat(first.partition().bytes()).isEqualTo(100);
        assertThat(budget.reserved()).as("key and partition in one step").isEqualTo(keyBytes + 100);
        assertThat(cache.missingBytes(A)).isZero();
        assertThat(tracker.snapshot().count(BufferClass.KEY_HOST)).as("read on first use, not at admission").isZero();
        ProvingKey key = cache.provingKey(A);
        assertThat(key.nPublic()).as("mul3: out and a").isEqualTo(2);
        assertThat(tracker.snapshot().cell(BufferClass.KEY_HOST, Stage.RESIDENT).bytes()).isEqualTo(keyBytes);

        KeyAdmission second = admit(A, 100);
        assertThat(cache.provingKey(A)).as("a second partition shares the loaded key").isSameAs(key);
        assertThat(budget.reserved()).isEqualTo(keyBytes + 200);
        assertThat(cache.cached()).singleElement().satisfies(k -> {
            assertThat(k.circuitId()).isEqualTo(A);
            assertThat(k.pins()).isEqualTo(2);
            assertThat(k.bytes()).isEqualTo(keyBytes);
        });

        end(first);
        first.releaseKey().run();  // twice: counted once
        assertThat(cache.cached()).singleElement().satisfies(k -> assertThat(k.pins()).isEqualTo(1));
        end(second);
        assertThat(cache.cached()).singleElement().satisfies(k -> assertThat(k.pins()).isZero());
        assertThat(budget.reserved()).as("the idle key stays cached").isEqualTo(keyBytes);
        assertThatThrownBy(() -> cache.provingKey(A)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not admitted");
        assertThatThrownBy(() -> cache.provingKey(B)).isInstanceOf(IllegalStateException.class);
    }

    /**
     * Where a device keeps a key's constraint rows (a/b/c evaluated on the GPU), each upload builds the rows on the
     * host first ({@code ConstraintRows}): the key's reservation covers that copy too — twice the zkey, of which the
     * key's own copy takes one half — and the copy is never larger than the zkey (checked on every fixture key).
     * The CUDA upload itself cannot run here; the reservation it relies on is what this checks.
     */
    @Test
    void whereADeviceKeepsConstraintRowsTheKeyReservesTheirHostCopyToo() throws Exception {
        io.proofline.snark.prover.DeviceProverBackend gpu =
                org.mockito.Mockito.mock(io.proofline.snark.prover.DeviceProverBackend.class);
        org.mockito.Mockito.when(gpu.abcOnDevice()).thenReturn(true);
        budget = new MemoryBudget(10 * keyBytes);
        cache = new KeyCache(data, budget, tracker, Duration.ofHours(1),
                io.proofline.witness.CalculatorOptions.defaults(), List.of(gpu));
        assertThat(cache.keyBytes(A)).isEqualTo(2 * keyBytes);
        KeyAdmission admission = admit(A, 100);
        assertThat(budget.reserved()).isEqualTo(2 * keyBytes + 100);
        ProvingKey key = cache.provingKey(A);
        assertThat(tracker.snapshot().cell(BufferClass.KEY_HOST, Stage.RESIDENT).bytes())
                .as("the key's own copy: the zkey").isEqualTo(keyBytes);
        try (io.proofline.snark.prover.ConstraintRows rows = io.proofline.snark.prover.ConstraintRows.of(key)) {
            assertThat(rows.byteSize() + io.proofline.snark.prover.ConstraintRows.startsBytes(rows.rows()))
                    .isEqualTo(io.proofline.snark.prover.ConstraintRows.hostBytes(key.domainSize(),
                            key.coefficients().count(), key.curve().fr().bytes()))
                    .isLessThanOrEqualTo(2 * keyBytes - keyBytes);
        }
        end(admission);

        for (String curve : new String[] {"bn128", "bls12381"}) {
            try (java.util.stream.Stream<Path> dirs = Files.list(Path.of("src/test/resources/fixtures", curve))) {
                for (Path fixture : dirs.toList()) {
                    Path zkey = fixture.resolve("circuit.zkey");
                    try (ProvingKey k = io.proofline.snark.format.ZkeyReader.read(zkey)) {
                        assertThat(io.proofline.snark.prover.ConstraintRows.hostBytes(k.domainSize(),
                                k.coefficients().count(), k.curve().fr().bytes())).as(zkey.toString())
                                .isLessThanOrEqualTo(Files.size(zkey));
                    }
                }
            }
        }
    }

    /**
     * Admission asks a key's size on every try: it is read from the file once, and never again (nor under the cache's
     * lock), so a file system that stalls later cannot stall admission (issue #33).
     */
    @Test
    void admissionReadsAKeysSizeOnceAndNeverTouchesItsFileAgain() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        assertThat(cache.keyBytes(A)).isEqualTo(keyBytes);
        Path zkey = data.circuit(A).resolve(CircuitService.ZKEY);
        Path aside = dir.resolve("aside.zkey");
        Files.move(zkey, aside); // as unreachable as a stalled mount, for the size
        try {
            assertThat(cache.keyBytes(A)).isEqualTo(keyBytes);
            assertThat(cache.missingBytes(A)).isEqualTo(keyBytes);
            KeyAdmission admission = admit(A, 1000);
            assertThat(budget.reserved()).isEqualTo(keyBytes + 1000);
            end(admission);
        } finally {
            Files.move(aside, zkey);
        }
    }

    @Test
    void whenKeyAndPartitionDoNotFitTogetherNothingIsReserved() {
        cache(3 * keyBytes, Duration.ofHours(1));
        Reservation elsewhere = budget.tryAcquire(keyBytes).orElseThrow();
        assertThat(cache.tryAdmit(A, keyBytes + 1, budget)).isEmpty();
        assertThat(budget.reserved()).isEqualTo(keyBytes);
        assertThat(cache.cached()).isEmpty();
        assertThat(cache.tryAdmit(A, keyBytes, budget)).isPresent();
        elsewhere.close();
    }

    /** The leak of issue #18: an I/O error while reading a key must not keep its reservation for good. */
    @Test
    void anIoErrorAtLoadIsRetryableAndTheKeysBytesGoBackWithItsPartitions() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        KeyAdmission first = admit(A, 100);
        KeyAdmission second = admit(A, 100);
        Path zkey = data.circuit(A).resolve(CircuitService.ZKEY);
        Path aside = Files.move(zkey, dir.resolve("aside.zkey"));

        assertThatThrownBy(() -> cache.provingKey(A)).isInstanceOf(RetryableException.class)
                .hasMessageContaining("cannot read the key of circuit " + A);
        assertThat(tracker.snapshot().count(BufferClass.KEY_HOST)).as("the buffer of the failed read is freed")
                .isZero();
        Files.move(aside, zkey);
        assertThat(cache.provingKey(A)).as("the next partition reads it again").isNotNull();
        end(first);
        end(second);
        assertThat(budget.reserved()).isEqualTo(keyBytes);

        cache.evict(A);
        KeyAdmission third = admit(A, 100);
        Files.delete(zkey);
        assertThatThrownBy(() -> cache.provingKey(A)).isInstanceOf(RetryableException.class);
        end(third);
        assertThat(budget.reserved()).as("a key never read goes with its last partition").isZero();
        assertThat(cache.cached()).isEmpty();
        assertThat(tracker.snapshot().count(BufferClass.KEY_HOST)).isZero();
    }

    @Test
    void evictionTakesUnusedKeysLeastRecentlyUsedFirstAndNeverOneInUse() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        KeyAdmission a = admit(A, 0);
        KeyAdmission b = admit(B, 0);
        KeyAdmission c = admit(C, 0);
        for (String id : new String[]{A, B, C}) {
            cache.provingKey(id);
        }
        end(b);
        Thread.sleep(2);
        end(a);  // A used after B: B is the least recently used
        // C stays in use

        assertThat(cache.evictUnused(1, List.of())).isEqualTo(keyBytes);
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).containsExactlyInAnyOrder(A, C);
        assertThat(cache.evictUnused(Long.MAX_VALUE, List.of())).as("only A is unused now").isEqualTo(keyBytes);
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).containsExactly(C);
        assertThat(budget.reserved()).isEqualTo(keyBytes);
        assertThat(cache.evict(C)).as("in use").isFalse();
        end(c);
        assertThat(cache.evict(C)).isTrue();
        assertThat(cache.evict(C)).as("no longer cached").isFalse();
        assertThat(budget.reserved()).isZero();
        assertThat(tracker.snapshot().count(BufferClass.KEY_HOST)).isZero();
    }

    @Test
    void evictionSparesTheHeadsKeyAndTakesTheLowestPriorityQueuedKeyLast() {
        cache(10 * keyBytes, Duration.ofHours(1));
        for (String id : new String[]{C, A, B}) {
            KeyAdmission used = admit(id, 0);
            cache.provingKey(id);
            end(used);
        }
        List<String> queued = List.of(C, B, A);  // C at the head, A queued last
        assertThat(cache.evictUnused(1, queued)).isEqualTo(keyBytes);
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).containsExactlyInAnyOrder(B, C);
        assertThat(cache.evictUnused(1, List.of(C, B, A))).isEqualTo(keyBytes);
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).containsExactly(C);
        assertThat(cache.evictUnused(Long.MAX_VALUE, queued)).as("the head's key stays").isZero();
    }

    @Test
    void keysUnusedLongerThanTheTimeoutExpireButKeysInUseStay() throws Exception {
        cache(10 * keyBytes, Duration.ofMillis(1));
        KeyAdmission a = admit(A, 0);
        admit(B, 0);
        cache.provingKey(A);
        cache.provingKey(B);
        end(a);
        Thread.sleep(5);
        cache.evictExpired();
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).containsExactly(B);
    }

    @Test
    void theCircuitsOtherFilesAreReadOnDemand() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        assertThat(cache.verifyingKey(A)).isSameAs(cache.verifyingKey(A));
        assertThat(cache.r1cs(A)).isPresent();
        assertThat(cache.r1cs(B)).as("registered without an r1cs").isEmpty();
        assertThat(cache.witnessCalculator(A)).as("registered without a wasm").isEmpty();
        KeyAdmission a = admit(A, 0);
        cache.provingKey(A);
        end(a);
        cache.forget(A);
        assertThat(cache.cached()).isEmpty();
    }

    @Test
    void closeGivesBackEveryByte() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        admit(A, 10);
        admit(B, 10).partition().close();
        cache.provingKey(A);
        cache.close();
        assertThat(budget.reserved()).as("all but the 10 B partition still open").isEqualTo(10);
        assertThat(tracker.snapshot().count(BufferClass.KEY_HOST)).isZero();
        assertThat(cache.cached()).isEmpty();
    }

    /** What is cached beside a key (verifying key, r1cs) goes with the key's eviction, idle or for memory. */
    @Test
    void whatIsCachedBesideAKeyIsDroppedWithIt() throws Exception {
        cache(10 * keyBytes, Duration.ofMillis(1));
        var vk = cache.verifyingKey(A);
        var r1cs = cache.r1cs(A).orElseThrow();
        KeyAdmission a = admit(A, 0);
        cache.provingKey(A);
        assertThat(cache.r1cs(A).orElseThrow()).as("cached while the key is").isSameAs(r1cs);
        end(a);
        assertThat(cache.holdsSideData(A)).isTrue();
        assertThat(cache.evict(A)).isTrue();
        assertThat(cache.holdsSideData(A)).as("dropped with the key").isFalse();
        assertThat(cache.r1cs(A).orElseThrow()).as("read again on demand").isNotSameAs(r1cs);
        assertThat(cache.verifyingKey(A)).isNotSameAs(vk);

        KeyAdmission again = admit(A, 0);
        cache.provingKey(A);
        end(again);
        Thread.sleep(5);
        cache.evictExpired();
        assertThat(cache.holdsSideData(A)).as("dropped with the idle key").isFalse();

        cache.verifyingKey(B);
        KeyAdmission b = admit(B, 0);
        cache.provingKey(B);
        end(b);
        assertThat(cache.evictUnused(1, java.util.List.of())).isEqualTo(keyBytes);
        assertThat(cache.holdsSideData(B)).as("dropped with the key evicted for memory").isFalse();
    }

    /**
     * A calculator's witness graph is reserved from the budget when it is recorded and given back when the key cache
     * drops the calculator; computations after that run on the wasm.
     */
    @Test
    void aWitnessGraphIsReservedFromTheBudgetUntilItsCalculatorIsDropped() throws Exception {
        cache(10 * keyBytes, Duration.ofMinutes(1));
        Path fixture = Path.of("src/test/resources/witness/lessthan-bls12381");
        Files.copy(fixture.resolve("circuit.wasm"), data.circuit(A).resolve(CircuitService.WASM));
        var calculator = cache.witnessCalculator(A).orElseThrow();
        var input = io.proofline.witness.WitnessInput.readJson(fixture.resolve("input.json"));

        assertThat(calculator.calculate(input).engine()).as("the recording run")
                .isEqualTo(io.proofline.witness.WitnessEngine.WASM);
        assertThat(budget.reserved()).as("the graph's program").isPositive();
        assertThat(calculator.calculate(input).engine()).isEqualTo(io.proofline.witness.WitnessEngine.GRAPH);

        cache.forget(A);
        assertThat(budget.reserved()).as("given back with the calculator").isZero();
        assertThat(calculator.calculate(input).engine()).isEqualTo(io.proofline.witness.WitnessEngine.WASM);
    }

    /** The side caches keep at most their capacity, least recently used out first. */
    @Test
    void sideCachesAreBoundedLeastRecentlyUsedFirst() {
        CircuitSideCache<String> side = new CircuitSideCache<>(2);
        java.util.concurrent.atomic.AtomicInteger loads = new java.util.concurrent.atomic.AtomicInteger();
        java.util.function.Function<String, String> load = id -> id + loads.incrementAndGet();
        assertThat(side.get(A, load)).isEqualTo(A + 1);
        assertThat(side.get(B, load)).isEqualTo(B + 2);
        assertThat(side.get(A, load)).as("cached").isEqualTo(A + 1);
        assertThat(side.get(C, load)).isEqualTo(C + 3);
        assertThat(side.size()).isEqualTo(2);
        assertThat(side.contains(B)).as("least recently used, dropped").isFalse();
        assertThat(side.contains(A)).isTrue();
        side.drop(A);
        assertThat(side.contains(A)).isFalse();
    }
}
