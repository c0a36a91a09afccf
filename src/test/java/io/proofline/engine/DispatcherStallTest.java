package io.proofline.engine;

import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.proofline.engine.EngineFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hangs do not look healthy (issue #33): a dispatcher blocked in a call that does not return (here the key cache's
 * admission, as a stalled file system would block it) while work waits is stalled, and past
 * {@link DispatcherHealth#STALL_LIMIT} its health is DOWN; a dispatcher that merely waits for memory turns and is not.
 */
class DispatcherStallTest {

    private EngineFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** A key cache whose admission blocks until released, as one reading a stalled mount would. */
    private static final class StallingKeys implements KeyResidency {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public long keyBytes(String circuitId) {
            return KeyResidency.NONE.keyBytes(circuitId);
        }

        @Override
        public long missingBytes(String circuitId) {
            return KeyResidency.NONE.missingBytes(circuitId);
        }

        @Override
        public Optional<KeyAdmission> tryAdmit(String circuitId, long partitionBytes, MemoryBudget budget) {
            entered.countDown();
            try {
                release.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return KeyResidency.NONE.tryAdmit(circuitId, partitionBytes, budget);
        }

        @Override
        public long evictUnused(long bytesWanted, List<String> queuedCircuits) {
            return KeyResidency.NONE.evictUnused(bytesWanted, queuedCircuits);
        }
    }

    @Test
    void aDispatcherBlockedWhileWorkWaitsIsStalledAndTurnsAgainOnceReleased() throws Exception {
        StallingKeys keys = new StallingKeys();
        fixture = new EngineFixture(0, b -> b, keys, new MemoryBudget(4 * EngineFixture.PARTITION_BYTES));
        JobId id = fixture.engine.submit(EngineFixture.job(1));
        assertTrue(keys.entered.await(20, TimeUnit.SECONDS));
        eventually("the stall is seen", () -> fixture.engine.dispatcherHealth().stalledFor()
                .compareTo(Duration.ofMillis(500)) >= 0);
        DispatcherHealth blocked = fixture.engine.dispatcherHealth();
        assertTrue(blocked.alive(), "the thread lives: only its progress says it is stuck");

        keys.release.countDown();
        assertEquals(JobState.DONE, fixture.await(id).state());
        assertEquals(Duration.ZERO, fixture.engine.dispatcherHealth().stalledFor(), "nothing waits: no stall");
        assertTrue(fixture.engine.dispatcherHealth().healthy());
    }

    @Test
    void healthIsDownOnceTheStallPassesTheLimit() {
        DispatcherHealth stalled = new DispatcherHealth(true, 0, Optional.empty(), Optional.empty(),
                DispatcherHealth.STALL_LIMIT.plusSeconds(1), 0);
        assertTrue(stalled.stalled());
        assertFalse(stalled.healthy());
        DispatcherHealth turning = new DispatcherHealth(true, 0, Optional.empty(), Optional.empty(),
                DispatcherHealth.STALL_LIMIT.minusSeconds(1), 0);
        assertTrue(turning.healthy());
        assertFalse(new DispatcherHealth(false, 1, Optional.of("boom"), Optional.of(Instant.now()), Duration.ZERO, 0)
                .healthy(), "a dead dispatcher is down");
    }
}
