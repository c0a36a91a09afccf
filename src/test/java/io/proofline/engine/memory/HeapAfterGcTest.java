package io.proofline.engine.memory;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap in use after the last collection comes from the collectors' notifications: a collection is seen, and the
 * figure is what the heap held right after it — at least what a live array takes, at most the max heap.
 */
class HeapAfterGcTest {

    @Test
    void aCollectionIsSeenAndItsFigureHoldsWhatIsLive() throws Exception {
        HeapAfterGc heap = HeapAfterGc.get();
        long seen = heap.collections();
        byte[] live = new byte[64 << 20];
        live[live.length - 1] = 1;
        long end = System.nanoTime() + 30_000_000_000L;
        // the notification comes on the JMX thread a moment after; a concurrent cycle's may come first
        while ((heap.collections() == seen || heap.bytes() < live.length) && System.nanoTime() < end) {
            System.gc();
            Thread.sleep(50);
        }
        assertThat(heap.collections()).as("a collection was notified").isGreaterThan(seen);
        assertThat(heap.bytes()).isGreaterThanOrEqualTo(live.length).isLessThanOrEqualTo(heap.maxBytes());
        assertThat(heap.maxBytes()).isEqualTo(Runtime.getRuntime().maxMemory());
        assertThat(live[live.length - 1]).isEqualTo((byte) 1);
    }
}
