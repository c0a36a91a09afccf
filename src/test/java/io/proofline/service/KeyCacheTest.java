package io.proofline.service;

import io.proofline.engine.BufferClass;
import io.proofline.engine.BufferTracker;
import io.proofline.engine.MemoryBudget;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The proving-key cache on real snarkjs keys (the mul3 fixtures): what a pin loads and charges to the budget, which
 * keys eviction takes (idle ones, least recently used first, never a pinned one) and what it gives back.
 */
class KeyCacheTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");
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

    @Test
    void aPinLoadsTheKeyOnceAndChargesItsBytes() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        assertThat(cache.keyBytes(A)).isEqualTo(keyBytes);

        cache.pin(A);
        ProvingKey key = cache.provingKey(A);
        assertThat(key.nPublic()).as("mul3: out and a").isEqualTo(2);
        assertThat(budget.reserved()).isEqualTo(keyBytes);
        assertThat(tracker.snapshot().cell(BufferClass.KEY_HOST, Stage.RESIDENT).bytes()).isEqualTo(keyBytes);

        cache.pin(A);
        assertThat(cache.provingKey(A)).as("a second job shares the loaded key").isSameAs(key);
        assertThat(budget.reserved()).isEqualTo(keyBytes);
        assertThat(cache.cached()).singleElement().satisfies(k -> {
            assertThat(k.circuitId()).isEqualTo(A);
            assertThat(k.pins()).isEqualTo(2);
            assertThat(k.bytes()).isEqualTo(keyBytes);
        });

        cache.unpin(A);
        cache.unpin(A);
        cache.unpin(A);  // one too many: stays at zero
        assertThat(cache.cached()).singleElement().satisfies(k -> assertThat(k.pins()).isZero());
        assertThatThrownBy(() -> cache.provingKey(A)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not pinned");
        assertThatThrownBy(() -> cache.provingKey(B)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void evictionTakesIdleKeysLeastRecentlyUsedFirstAndNeverAPinnedOne() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        for (String id : new String[]{A, B, C}) {
            cache.pin(id);
        }
        cache.unpin(B);
        Thread.sleep(2);
        cache.unpin(A);  // A used after B: B is the least recently used
        // C stays pinned

        assertThat(cache.evictIdle(1)).isEqualTo(keyBytes);
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).containsExactlyInAnyOrder(A, C);
        assertThat(cache.evictIdle(Long.MAX_VALUE)).as("only A is idle now").isEqualTo(keyBytes);
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).containsExactly(C);
        assertThat(budget.reserved()).isEqualTo(keyBytes);
        assertThat(cache.evict(C)).as("pinned").isFalse();
        cache.unpin(C);
        assertThat(cache.evict(C)).isTrue();
        assertThat(cache.evict(C)).as("no longer cached").isFalse();
        assertThat(budget.reserved()).isZero();
        assertThat(tracker.snapshot().count(BufferClass.KEY_HOST)).isZero();
    }

    @Test
    void aFullBudgetOfIdleKeysMakesRoomForTheNextOne() throws Exception {
        cache(2 * keyBytes, Duration.ofHours(1));
        for (String id : new String[]{A, B}) {
            cache.pin(id);
            cache.unpin(id);
        }

        cache.pin(C);
        assertThat(cache.cached()).extracting(KeyCache.CachedKey::circuitId).hasSize(2).contains(C);
        assertThat(budget.reserved()).isEqualTo(2 * keyBytes);
    }

    @Test
    void aKeyLargerThanTheWholeBudgetFailsWithoutWaiting() {
        cache(keyBytes - 1, Duration.ofHours(1));
        assertThatThrownBy(() -> cache.pin(A)).isInstanceOf(IOException.class)
                .hasMessageContaining(A).hasMessageContaining("larger than the whole memory budget");
        assertThat(cache.cached()).isEmpty();
    }

    @Test
    void keysIdleLongerThanTheTimeoutExpireButPinnedOnesStay() throws Exception {
        cache(10 * keyBytes, Duration.ofMillis(1));
        cache.pin(A);
        cache.pin(B);
        cache.unpin(A);
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
        cache.pin(A);
        cache.unpin(A);
        cache.forget(A);
        assertThat(cache.cached()).isEmpty();
    }

    @Test
    void closeGivesBackEveryByte() throws Exception {
        cache(10 * keyBytes, Duration.ofHours(1));
        cache.pin(A);
        cache.pin(B);
        cache.close();
        assertThat(budget.reserved()).isZero();
        assertThat(tracker.snapshot().count(BufferClass.KEY_HOST)).isZero();
        assertThat(cache.cached()).isEmpty();
    }
}
