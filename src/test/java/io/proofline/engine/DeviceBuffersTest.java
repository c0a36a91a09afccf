package io.proofline.engine;

import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.device.DeviceMemory;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.BufferCell;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.TrackedBuffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Device buffers ({@code KEY_DEVICE}, {@code SCRATCH_DEVICE}) are counted by the backend that owns them and reach the
 * buffer table through each device's {@link DeviceMemory}: per device in the device figures, summed in the
 * {@code RESIDENT} column. Uses a fake device memory source (no GPU needed).
 */
class DeviceBuffersTest {

    /** A device whose memory figures the test sets, as a GPU backend would publish them after each prove start. */
    private record FakeGpu(String id, AtomicReference<DeviceMemory> figures) implements ProvingDevice {
        @Override
        public DeviceMemory memory() {
            return figures.get();
        }
    }

    @Test
    void theEnginesTableShowsEachDevicesKeysAndScratchInTheResidentColumn() {
        AtomicReference<DeviceMemory> gpu0 = new AtomicReference<>(new DeviceMemory(-1, -1));
        AtomicReference<DeviceMemory> gpu1 = new AtomicReference<>(new DeviceMemory(-1, -1));
        BufferTracker tracker = new BufferTracker();
        EngineConfig config = EngineConfig.builder().budgetBytes(1 << 20).synthesisWorkers(1).finalizerThreads(1)
                .workersPerDevice(1).build();
        try (ProvingEngine engine = ProvingEngine.builder(config, new FakeProver())
                .devices(List.of(new FakeGpu("gpu0", gpu0), new FakeGpu("gpu1", gpu1))).tracker(tracker).start()) {
            PipelineSnapshot before = engine.snapshot();
            assertEquals(0, before.count(BufferClass.KEY_DEVICE));
            assertEquals(0, before.bytes(BufferClass.SCRATCH_DEVICE));

            gpu0.set(new DeviceMemory(3000, 7000, 1, 1200, 5, 800));
            gpu1.set(new DeviceMemory(500, 9500, 2, 300, 1, 64));
            // A host key the service's key cache tracks itself lands in the same column, of its own class.
            TrackedBuffer hostKey = tracker.track(BufferClass.KEY_HOST, Stage.RESIDENT, 4096);
            PipelineSnapshot after = engine.snapshot();
            assertEquals(new BufferCell(BufferClass.KEY_DEVICE, Stage.RESIDENT, 3, 1500),
                    after.cell(BufferClass.KEY_DEVICE, Stage.RESIDENT));
            assertEquals(new BufferCell(BufferClass.SCRATCH_DEVICE, Stage.RESIDENT, 6, 864),
                    after.cell(BufferClass.SCRATCH_DEVICE, Stage.RESIDENT));
            assertEquals(4096, after.bytes(BufferClass.KEY_HOST));
            assertEquals(0, after.cell(BufferClass.KEY_DEVICE, Stage.PROVING).count(), "only the resident column");
            DeviceFigures first = after.devices().stream().filter(d -> d.id().equals("gpu0")).findFirst().orElseThrow();
            assertEquals(1200, first.memory().bytes(BufferClass.KEY_DEVICE));
            assertEquals(5, first.memory().count(BufferClass.SCRATCH_DEVICE));
            assertEquals(0, first.memory().bytes(BufferClass.ABC));
            hostKey.close();

            // Evicted keys and a stopped worker leave the table.
            gpu0.set(new DeviceMemory(0, 10000));
            gpu1.set(DeviceMemory.UNKNOWN);
            assertEquals(0, engine.snapshot().count(BufferClass.KEY_DEVICE));
            assertEquals(0, engine.snapshot().bytes(BufferClass.SCRATCH_DEVICE));
        }
    }

    /**
     * a/b/c a device holds (its working buffers for them) are counted as ABC in the proving column, out of the other
     * working buffers and out of the tracked host bytes.
     */
    @Test
    void aDevicesABCShowInTheProvingColumnAsABCAndNotAsHostMemory() {
        AtomicReference<DeviceMemory> gpu0 = new AtomicReference<>(new DeviceMemory(-1, -1));
        BufferTracker tracker = new BufferTracker();
        EngineConfig config = EngineConfig.builder().budgetBytes(1 << 20).synthesisWorkers(1).finalizerThreads(1)
                .workersPerDevice(1).build();
        try (ProvingEngine engine = ProvingEngine.builder(config, new FakeProver())
                .devices(List.of(new FakeGpu("gpu0", gpu0))).tracker(tracker).start()) {
            long hostBefore = engine.snapshot().memory().trackedHostBytes();
            gpu0.set(new DeviceMemory(3000, 7000, 1, 1200, 5, 800, 3, 96 * 3));
            PipelineSnapshot s = engine.snapshot();
            assertEquals(new BufferCell(BufferClass.ABC, Stage.PROVING, 3, 288), s.cell(BufferClass.ABC, Stage.PROVING));
            assertEquals(new BufferCell(BufferClass.SCRATCH_DEVICE, Stage.RESIDENT, 2, 512),
                    s.cell(BufferClass.SCRATCH_DEVICE, Stage.RESIDENT));
            assertEquals(0, s.cell(BufferClass.ABC, Stage.RESIDENT).count());
            assertEquals(hostBefore, s.memory().trackedHostBytes(), "device a/b/c are not host memory");
        }
        assertThrows(IllegalArgumentException.class, () -> new DeviceMemory(0, 0, 0, 0, 2, 64, 3, 32));
    }

    @Test
    void negativeBufferFiguresAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new DeviceMemory(0, 0, -1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new DeviceMemory(0, 0, 0, 0, 0, -5));
    }
}
