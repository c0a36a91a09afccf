package io.proofline.web;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.service.BusyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

class SnapshotBroadcastTest {

    /** Distinct snapshots, so that a test can tell which one a sink got. */
    final List<PipelineSnapshot> made = new CopyOnWriteArrayList<>();
    final SnapshotBroadcast broadcast = new SnapshotBroadcast(() -> {
        PipelineSnapshot s = mock(PipelineSnapshot.class);
        made.add(s);
        return s;
    }, Duration.ofMillis(20), 2, Duration.ofMinutes(1), "test-stream");

    @AfterEach
    void close() {
        broadcast.close();
    }

    /** A sink that records what it got, and can be made to block like a reader that stopped reading. */
    static class RecordingSink implements SnapshotBroadcast.Sink {
        final List<PipelineSnapshot> got = new CopyOnWriteArrayList<>();
        final CountDownLatch released;
        final AtomicInteger blockedSends = new AtomicInteger();
        volatile Exception failed;
        volatile boolean ended;

        RecordingSink(boolean stuck) {
            this.released = new CountDownLatch(stuck ? 1 : 0);
        }

        @Override
        public void send(PipelineSnapshot snapshot) throws IOException {
            got.add(snapshot);
            try {
                if (released.getCount() > 0) {
                    blockedSends.incrementAndGet();
                }
                released.await();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
        }

        @Override
        public void fail(Exception e) {
            failed = e;
        }

        @Override
        public void end() {
            ended = true;
        }
    }

    @Test
    void aStuckReaderStallsNoOtherAndHoldsOneSnapshotAtMost() throws Exception {
        RecordingSink stuck = new RecordingSink(true);
        RecordingSink healthy = new RecordingSink(false);
        broadcast.register("slow-key", stuck);
        broadcast.register("other-key", healthy);

        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (healthy.got.size() < 20 && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(healthy.got).as("the healthy reader kept receiving while the other was stuck").hasSizeGreaterThanOrEqualTo(20);
        assertThat(stuck.got).as("the stuck reader is in its first write").hasSize(1);
        assertThat(stuck.blockedSends.get()).isEqualTo(1);

        // once it reads again it gets the newest snapshot, not the backlog of every one it missed
        stuck.released.countDown();
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (stuck.got.size() < 2 && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        int missed = made.size();
        assertThat(stuck.got.size()).isLessThan(missed / 2);
        assertThat(stuck.got.get(1)).isNotSameAs(made.get(1));
    }

    @Test
    void eachOwnerHoldsAtMostTheCapAndAClosedStreamFreesItsPlace() {
        Runnable first = broadcast.register("key-a", new RecordingSink(false));
        broadcast.register("key-a", new RecordingSink(false));
        assertThatThrownBy(() -> broadcast.register("key-a", new RecordingSink(false)))
                .isInstanceOf(BusyException.class).hasMessageContaining("at most 2");
        broadcast.register("key-b", new RecordingSink(false));
        assertThat(broadcast.open()).isEqualTo(3);

        first.run();
        first.run();
        assertThat(broadcast.open()).isEqualTo(2);
        broadcast.register("key-a", new RecordingSink(false));
        assertThatThrownBy(() -> broadcast.register("key-a", new RecordingSink(false)))
                .isInstanceOf(BusyException.class);
    }

    @Test
    void aReaderThatFailsIsDroppedAndItsPlaceFreed() throws Exception {
        SnapshotBroadcast.Sink broken = new RecordingSink(false) {
            @Override
            public void send(PipelineSnapshot snapshot) throws IOException {
                throw new IOException("connection reset");
            }
        };
        broadcast.register("key-a", broken);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (broadcast.open() > 0 && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertThat(broadcast.open()).isZero();
        assertThat(((RecordingSink) broken).failed).hasMessage("connection reset");
        broadcast.register("key-a", new RecordingSink(false));
        broadcast.register("key-a", new RecordingSink(false));
    }

    @Test
    void closingEndsEveryStream() {
        RecordingSink sink = new RecordingSink(false);
        broadcast.register("key-a", sink);
        broadcast.close();
        assertThat(sink.ended).isTrue();
    }
}
