package io.proofline.engine.memory;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.QueueDepths;
import io.proofline.engine.Stage;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferTrackerTest {

    @Test
    void countsBuffersByClassAndStageAsTheyMoveAndClose() {
        BufferTracker tracker = new BufferTracker();
        TrackedBuffer input = tracker.track(BufferClass.INPUT, Stage.QUEUED, 100);
        OffHeapBuffer abc = tracker.allocate(BufferClass.ABC, Stage.SYNTHESIZING, 4096);
        abc.segment().set(ValueLayout.JAVA_LONG, 4088, 42L);

        PipelineSnapshot s = tracker.snapshot();
        assertEquals(new BufferCell(BufferClass.INPUT, Stage.QUEUED, 1, 100), s.cell(BufferClass.INPUT, Stage.QUEUED));
        assertEquals(4096, s.cell(BufferClass.ABC, Stage.SYNTHESIZING).bytes());
        assertEquals(4096, s.process().offHeapBytes(), "only tracker-allocated buffers count as off-heap");
        assertEquals(1, s.process().offHeapBuffers());

        abc.moveTo(Stage.AWAITING_DEVICE);
        s = tracker.snapshot();
        assertEquals(0, s.cell(BufferClass.ABC, Stage.SYNTHESIZING).count());
        assertEquals(1, s.cell(BufferClass.ABC, Stage.AWAITING_DEVICE).count());

        abc.close();
        abc.close();
        input.close();
        s = tracker.snapshot();
        assertEquals(0, s.totalCount());
        assertEquals(0, s.process().offHeapBytes());
    }

    @Test
    void readsProcessMemoryWhereTheKernelTellsIt() {
        PipelineSnapshot s = new BufferTracker().snapshot();
        assertTrue(s.process().heapUsedBytes() > 0);
        assertTrue(s.process().heapCommittedBytes() >= s.process().heapUsedBytes());
        if (java.nio.file.Files.exists(java.nio.file.Path.of("/proc/self/status"))) {
            assertTrue(s.process().rssBytes() > 0);
            assertTrue(s.process().rssPeakBytes() >= s.process().rssBytes());
        }
    }

    @Test
    void freeingALargeBufferLowersRss() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(java.nio.file.Path.of("/proc/self/status")));
        BufferTracker tracker = new BufferTracker();
        long size = 256L * 1024 * 1024;
        OffHeapBuffer big = tracker.allocate(BufferClass.WITNESS, Stage.SYNTHESIZING, size);
        big.segment().fill((byte) 1);
        long withBuffer = tracker.snapshot().process().rssBytes();
        big.close();
        long without = tracker.snapshot().process().rssBytes();
        assertTrue(withBuffer - without > size / 2, "RSS went from " + withBuffer + " to " + without);
    }

    @Test
    void listenersSeeEveryEventWithTheTableAfterIt() {
        BufferTracker tracker = new BufferTracker();
        MemoryBudget budget = new MemoryBudget(1000);
        tracker.attach(budget, List::of, () -> QueueDepths.NONE);
        List<String> seen = new ArrayList<>();
        tracker.addListener((event, snapshot) -> seen.add(event + ":" + snapshot.budget().reservedBytes()));
        Reservation r = budget.tryAcquire(300).orElseThrow();
        tracker.event("reserved");
        r.close();
        tracker.event("released");
        assertEquals(List.of("reserved:300", "released:0"), seen);
        assertTrue(tracker.snapshot().toLogLine().contains("budget=0/1000"));
    }
}
