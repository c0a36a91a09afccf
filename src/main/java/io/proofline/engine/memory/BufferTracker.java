package io.proofline.engine.memory;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.QueueDepths;
import io.proofline.engine.Stage;
import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.device.DeviceMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Counts every large buffer by {@link BufferClass} × {@link Stage} (live count and bytes), the off-heap
 * bytes the service allocated, and reads process memory; assembles the {@link PipelineSnapshot} and writes
 * it as one DEBUG line at each lifecycle event. One instance per engine, passed in: there are no global
 * counters.
 */
public final class BufferTracker {

    private static final System.Logger LOG = System.getLogger(BufferTracker.class.getName());
    private static final int CLASSES = BufferClass.values().length;
    private static final int STAGES = Stage.values().length;

    private final long[] counts = new long[CLASSES * STAGES];
    private final long[] bytes = new long[CLASSES * STAGES];
    private long offHeapBytes;
    private long offHeapBuffers;
    private final List<BiConsumer<String, PipelineSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private volatile MemoryBudget budget;
    private volatile Supplier<List<DeviceFigures>> devices = List::of;
    private volatile Supplier<QueueDepths> queues = () -> QueueDepths.NONE;
    private volatile MemoryPlan memoryPlan;

    /** Connects the figures the tracker does not own; the engine calls it once at start. */
    public void attach(MemoryBudget budget, Supplier<List<DeviceFigures>> devices, Supplier<QueueDepths> queues) {
        this.budget = Objects.requireNonNull(budget, "budget");
        this.devices = Objects.requireNonNull(devices, "devices");
        this.queues = Objects.requireNonNull(queues, "queues");
    }

    /** The plan the snapshot's {@link MemoryFigures} are read against (the service's; none in tests). */
    public void useMemoryPlan(MemoryPlan plan) {
        this.memoryPlan = Objects.requireNonNull(plan, "plan");
    }

    /** Allocates and tracks an off-heap buffer (zeroed, {@link OffHeapBuffer#ALIGNMENT}-aligned). */
    public OffHeapBuffer allocate(BufferClass bufferClass, Stage stage, long size) {
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        Arena arena = Arena.ofShared();
        MemorySegment segment;
        try {
            segment = arena.allocate(size, OffHeapBuffer.ALIGNMENT);
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
        return new OffHeapBuffer(arena, segment, add(bufferClass, stage, size, true));
    }

    /**
     * Tracks bytes the tracker does not allocate: a heap upload ({@link BufferClass#INPUT}), device memory
     * ({@link BufferClass#KEY_DEVICE}, {@link BufferClass#SCRATCH_DEVICE}), pinned host memory.
     */
    public TrackedBuffer track(BufferClass bufferClass, Stage stage, long size) {
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        return add(bufferClass, stage, size, false);
    }

    /** Called on every buffer event the engine wants in the log: writes the table at DEBUG, tells listeners. */
    public void event(String what) {
        boolean debug = LOG.isLoggable(System.Logger.Level.DEBUG);
        if (!debug && listeners.isEmpty()) {
            return;
        }
        PipelineSnapshot snapshot = snapshot();
        if (debug) {
            LOG.log(System.Logger.Level.DEBUG, "{0}: {1}", what, snapshot.toLogLine());
        }
        for (BiConsumer<String, PipelineSnapshot> listener : listeners) {
            listener.accept(what, snapshot);
        }
    }

    /** Called with every lifecycle event and the snapshot after it (on the thread of the event: keep it short). */
    public void addListener(BiConsumer<String, PipelineSnapshot> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeListener(BiConsumer<String, PipelineSnapshot> listener) {
        listeners.remove(listener);
    }

    /**
     * The table now. Device buffers ({@link BufferClass#KEY_DEVICE}, {@link BufferClass#SCRATCH_DEVICE}, and a/b/c on
     * a device as {@link BufferClass#ABC}) are read from the devices' {@link DeviceMemory} (the backend that owns them
     * counts them) and added to the {@link Stage#RESIDENT} column (a/b/c: {@link Stage#PROVING}), beside any tracked
     * through {@link #track}; the tracked host bytes leave the device's a/b/c out.
     */
    public PipelineSnapshot snapshot() {
        List<DeviceFigures> deviceFigures = devices.get();
        List<BufferCell> cells = new ArrayList<>(CLASSES * STAGES);
        long liveOffHeapBytes;
        long liveOffHeapBuffers;
        long deviceAbcBytes = 0;
        for (DeviceFigures d : deviceFigures) {
            deviceAbcBytes += d.memory().bytes(BufferClass.ABC);
        }
        synchronized (this) {
            for (BufferClass c : BufferClass.values()) {
                for (Stage s : Stage.values()) {
                    int i = index(c, s);
                    long count = counts[i];
                    long size = bytes[i];
                    if (s == DeviceMemory.column(c)) {
                        for (DeviceFigures d : deviceFigures) {
                            count += d.memory().count(c);
                            size += d.memory().bytes(c);
                        }
                    }
                    cells.add(new BufferCell(c, s, count, size));
                }
            }
            liveOffHeapBytes = offHeapBytes;
            liveOffHeapBuffers = offHeapBuffers;
        }
        long[] rss = ProcFiles.rssAndPeak();
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        HeapAfterGc afterGc = HeapAfterGc.get();
        ProcessMemory process = new ProcessMemory(rss[0], rss[1], heap.getUsed(), heap.getCommitted(),
                liveOffHeapBytes, liveOffHeapBuffers, afterGc.bytes(), afterGc.maxBytes());
        MemoryBudget b = budget;
        BudgetFigures budgetFigures = b == null ? BudgetFigures.NONE
                : new BudgetFigures(b.total(), b.reserved(), b.peakReserved());
        long trackedHost = -deviceAbcBytes;
        for (BufferCell c : cells) {
            if (c.bufferClass().offHeapHost()) {
                trackedHost += c.bytes();
            }
        }
        MemoryPlan plan = memoryPlan;
        MemoryFigures memory = plan == null ? MemoryFigures.unplanned(trackedHost)
                : MemoryFigures.of(plan, process, trackedHost);
        return new PipelineSnapshot(Instant.now(), cells, process, budgetFigures, memory, deviceFigures, queues.get());
    }


    private synchronized TrackedBuffer add(BufferClass bufferClass, Stage stage, long size, boolean offHeap) {
        int i = index(bufferClass, stage);
        counts[i]++;
        bytes[i] += size;
        if (offHeap) {
            offHeapBytes += size;
            offHeapBuffers++;
        }
        return new TrackedBuffer(this, bufferClass, stage, size, offHeap);
    }

    synchronized void move(BufferClass bufferClass, Stage from, Stage to, long size) {
        int i = index(bufferClass, from);
        int j = index(bufferClass, to);
        counts[i]--;
        bytes[i] -= size;
        counts[j]++;
        bytes[j] += size;
    }

    synchronized void remove(TrackedBuffer entry, Stage stage) {
        int i = index(entry.bufferClass(), stage);
        counts[i]--;
        bytes[i] -= entry.bytes();
        if (entry.offHeap()) {
            offHeapBytes -= entry.bytes();
            offHeapBuffers--;
        }
    }

    private static int index(BufferClass bufferClass, Stage stage) {
        return bufferClass.ordinal() * STAGES + stage.ordinal();
    }
}
