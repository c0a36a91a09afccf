package io.proofline.engine.memory;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryBudgetTest {

    @Test
    void tryAcquireTakesWhatFitsAndRefusesTheRestWithoutWaiting() {
        MemoryBudget budget = new MemoryBudget(100);
        Reservation a = budget.tryAcquire(60).orElseThrow();
        assertTrue(budget.tryAcquire(41).isEmpty());
        Reservation b = budget.tryAcquire(40).orElseThrow();
        assertEquals(100, budget.reserved());
        assertEquals(0, budget.available());
        a.close();
        b.close();
        assertEquals(0, budget.reserved());
        assertEquals(100, budget.peakReserved());
    }

    @Test
    void releaseReturnsPartEarlyAndCloseReturnsTheRestExactlyOnce() {
        MemoryBudget budget = new MemoryBudget(100);
        Reservation r = budget.tryAcquire(90).orElseThrow();
        r.release(30);
        assertEquals(60, r.bytes());
        assertEquals(60, budget.reserved());
        r.close();
        r.close();
        assertEquals(0, budget.reserved());
        assertTrue(r.isClosed());
        assertThrows(IllegalStateException.class, () -> r.release(1));
    }

    @Test
    void releasingMoreThanHeldIsRefused() {
        MemoryBudget budget = new MemoryBudget(100);
        Reservation r = budget.tryAcquire(10).orElseThrow();
        assertThrows(IllegalArgumentException.class, () -> r.release(11));
        assertEquals(10, budget.reserved());
    }

    @Test
    void splitHandsBytesToAnotherOwnerWithoutReturningThem() {
        MemoryBudget budget = new MemoryBudget(100);
        Reservation partition = budget.tryAcquire(80).orElseThrow();
        Reservation cached = partition.split(50);
        partition.close();
        assertEquals(50, budget.reserved(), "the split part stays charged until its owner closes it");
        cached.close();
        assertEquals(0, budget.reserved());
    }

    @Test
    void aRequestLargerThanTheBudgetIsRefusedAtOnce() {
        MemoryBudget budget = new MemoryBudget(100);
        assertFalse(budget.canEverFit(101));
        assertThrows(IllegalArgumentException.class, () -> budget.tryAcquire(101));
        assertThrows(IllegalArgumentException.class, () -> budget.acquire(101));
    }

    @Test
    void acquireBlocksUntilEnoughIsReleased() throws Exception {
        MemoryBudget budget = new MemoryBudget(100);
        Reservation held = budget.tryAcquire(70).orElseThrow();
        try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
            Future<Reservation> waiter = pool.submit(() -> budget.acquire(50));
            assertThrows(java.util.concurrent.TimeoutException.class, () -> waiter.get(50, TimeUnit.MILLISECONDS));
            held.release(20);
            Reservation got = waiter.get(5, TimeUnit.SECONDS);
            assertEquals(100, budget.reserved());
            got.close();
            held.close();
        }
        assertEquals(0, budget.reserved());
    }

    @Test
    void timedAcquireGivesUpEmptyHanded() throws Exception {
        MemoryBudget budget = new MemoryBudget(100);
        Reservation held = budget.tryAcquire(100).orElseThrow();
        Optional<Reservation> none = budget.acquire(1, Duration.ofMillis(20));
        assertTrue(none.isEmpty());
        assertEquals(100, budget.reserved());
        held.close();
    }

    @Test
    void acquireIsInterruptibleAndTakesNothingWhenInterrupted() throws Exception {
        MemoryBudget budget = new MemoryBudget(100);
        Reservation held = budget.tryAcquire(100).orElseThrow();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch started = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            started.countDown();
            try {
                budget.acquire(10);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        waiter.start();
        started.await();
        waiter.interrupt();
        waiter.join(5_000);
        assertTrue(thrown.get() instanceof InterruptedException, "got " + thrown.get());
        assertEquals(100, budget.reserved());
        held.close();
    }

    /** Many threads hammering acquire/release never exceed the budget and never lose a wake-up. */
    @Test
    void concurrentAcquireAndReleaseNeverOvercommitsNorHangs() throws Exception {
        MemoryBudget budget = new MemoryBudget(1_000);
        int threads = 8;
        int rounds = 2_000;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            java.util.List<Future<?>> futures = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                futures.add(pool.submit(() -> {
                    java.util.Random random = new java.util.Random(seed);
                    for (int i = 0; i < rounds; i++) {
                        try (Reservation r = budget.acquire(100 + random.nextInt(400))) {
                            if (budget.reserved() > budget.total()) {
                                throw new AssertionError("overcommitted: " + budget);
                            }
                            if (random.nextBoolean()) {
                                r.release(r.bytes() / 2);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
        assertEquals(0, budget.reserved());
        assertTrue(budget.peakReserved() <= budget.total());
    }
}
