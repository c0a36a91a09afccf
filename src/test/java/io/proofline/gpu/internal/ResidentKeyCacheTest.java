package io.proofline.gpu.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-device key cache's bookkeeping, with fake keys and fake resident copies. */
class ResidentKeyCacheTest {

    /** A fake device copy that records its freeing. */
    private final class Fake implements AutoCloseable {
        final String name;

        Fake(String name) {
            this.name = name;
            loads.add(name);
        }

        @Override
        public void close() {
            freed.add(name);
        }
    }

    private final List<String> loads = new ArrayList<>();
    private final List<String> freed = new ArrayList<>();

    @Test
    void aKeyIsLoadedOncePerIdentityAndReused() {
        ResidentKeyCache<Object, Fake> cache = new ResidentKeyCache<>(100);
        Object k = new Object();
        Fake first;
        try (var lease = cache.acquire(k, 40, () -> new Fake("k"))) {
            first = lease.value();
        }
        try (var lease = cache.acquire(k, 40, () -> new Fake("again"))) {
            assertSame(first, lease.value());
        }
        assertEquals(List.of("k"), loads);
        assertEquals(40, cache.residentBytes());
        // Equal but distinct key objects are different keys: identity, not equals.
        String a = new String("same");
        String b = new String("same");
        cache.acquire(a, 10, () -> new Fake("a")).close();
        cache.acquire(b, 10, () -> new Fake("b")).close();
        assertEquals(List.of("k", "a", "b"), loads);
    }

    @Test
    void idleKeysAreEvictedLeastRecentlyUsedFirst() {
        ResidentKeyCache<Object, Fake> cache = new ResidentKeyCache<>(100);
        Object k1 = new Object();
        Object k2 = new Object();
        Object k3 = new Object();
        cache.acquire(k1, 40, () -> new Fake("k1")).close();
        cache.acquire(k2, 40, () -> new Fake("k2")).close();
        cache.acquire(k1, 40, () -> new Fake("k1 again")).close(); // k1 is now the most recently used
        cache.acquire(k3, 40, () -> new Fake("k3")).close();
        assertEquals(List.of("k2"), freed);
        assertTrue(cache.isResident(k1) && cache.isResident(k3) && !cache.isResident(k2));
        assertEquals(80, cache.residentBytes());
    }

    @Test
    void aPinnedKeyIsNeverEvicted() {
        ResidentKeyCache<Object, Fake> cache = new ResidentKeyCache<>(100);
        Object k1 = new Object();
        Object k2 = new Object();
        var pinned = cache.acquire(k1, 60, () -> new Fake("k1"));
        var e = assertThrows(ResidentKeyCache.BudgetExceededException.class,
                () -> cache.acquire(k2, 60, () -> new Fake("k2")));
        assertTrue(e.getMessage().contains("in use"), e.getMessage());
        assertTrue(e.everFits(), "it fits once the key in use is released: capacity for now, not for good");
        assertEquals(List.of("k1"), loads, "nothing was loaded for the key that did not fit");
        assertFalse(cache.evict(k1), "a pinned key is not evicted on request either");
        pinned.close();
        pinned.close(); // idempotent: the pin count does not go negative
        cache.acquire(k2, 60, () -> new Fake("k2")).close();
        assertEquals(List.of("k1"), freed);
        assertEquals(60, cache.residentBytes());
    }

    @Test
    void aKeyLargerThanTheBudgetIsRefusedWithoutEvicting() {
        ResidentKeyCache<Object, Fake> cache = new ResidentKeyCache<>(100);
        cache.acquire(new Object(), 50, () -> new Fake("small")).close();
        var e = assertThrows(ResidentKeyCache.BudgetExceededException.class,
                () -> cache.acquire(new Object(), 101, () -> new Fake("huge")));
        assertFalse(e.everFits(), "a key over the budget never fits this device");
        assertEquals(List.of(), freed);
        assertEquals(1, cache.size());
    }

    @Test
    void closeFreesEverything() {
        ResidentKeyCache<Object, Fake> cache = new ResidentKeyCache<>(100);
        cache.acquire(new Object(), 10, () -> new Fake("a")).close();
        cache.acquire(new Object(), 10, () -> new Fake("b"));
        cache.close();
        assertEquals(List.of("a", "b"), freed);
        assertEquals(0, cache.residentBytes());
    }
}
