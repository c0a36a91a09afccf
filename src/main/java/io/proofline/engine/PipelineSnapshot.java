package io.proofline.engine;

import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.memory.BudgetFigures;
import io.proofline.engine.memory.BufferCell;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.MemoryFigures;
import io.proofline.engine.memory.ProcessMemory;
import java.time.Instant;
import java.util.List;

/**
 * An immutable picture of the pipeline's memory (DESIGN §3): the buffer table, process figures, the
 * budget, the memory plan with the unaccounted bytes, the devices and the queues. What the REST endpoint, the console and the metrics read.
 */
public record PipelineSnapshot(Instant takenAt, List<BufferCell> cells, ProcessMemory process, BudgetFigures budget,
                               MemoryFigures memory, List<DeviceFigures> devices, QueueDepths queues) {

    public PipelineSnapshot {
        cells = List.copyOf(cells);
        devices = List.copyOf(devices);
    }

    /** The cell of {@code bufferClass} × {@code stage} (zero when nothing is there). */
    public BufferCell cell(BufferClass bufferClass, Stage stage) {
        for (BufferCell c : cells) {
            if (c.bufferClass() == bufferClass && c.stage() == stage) {
                return c;
            }
        }
        return new BufferCell(bufferClass, stage, 0, 0);
    }

    /** Live buffers of a class over all stages. */
    public long count(BufferClass bufferClass) {
        return cells.stream().filter(c -> c.bufferClass() == bufferClass).mapToLong(BufferCell::count).sum();
    }

    /** Live bytes of a class over all stages. */
    public long bytes(BufferClass bufferClass) {
        return cells.stream().filter(c -> c.bufferClass() == bufferClass).mapToLong(BufferCell::bytes).sum();
    }

    /** Live buffers of every class. */
    public long totalCount() {
        return cells.stream().mapToLong(BufferCell::count).sum();
    }

    /** The whole table on one line, for the DEBUG log. */
    public String toLogLine() {
        StringBuilder line = new StringBuilder(256);
        line.append("rss=").append(process.rssBytes()).append(" hwm=").append(process.rssPeakBytes())
                .append(" heap=").append(process.heapUsedBytes()).append('/').append(process.heapCommittedBytes())
                .append(" offheap=").append(process.offHeapBytes()).append('#').append(process.offHeapBuffers())
                .append(" budget=").append(budget.reservedBytes()).append('/').append(budget.totalBytes())
                .append(" peak=").append(budget.peakReservedBytes())
                .append(" unaccounted=").append(memory.unaccountedBytes())
                .append(" queue=").append(queues.queued()).append('/').append(queues.queueCapacity())
                .append(" synth=").append(queues.synthesizing())
                .append(" handoff=").append(queues.awaitingDevice()).append('/').append(queues.handoffCapacity())
                .append(" proving=").append(queues.proving())
                .append(" finalizing=").append(queues.finalizing()).append(" |");
        for (BufferCell c : cells) {
            if (c.count() > 0) {
                line.append(' ').append(c.bufferClass()).append('@').append(c.stage()).append('=')
                        .append(c.count()).append('#').append(c.bytes()).append('B');
            }
        }
        for (DeviceFigures d : devices) {
            line.append(" | ").append(d.id()).append(" busy=").append(d.busyWorkers()).append('/').append(d.workers())
                    .append(" mem=").append(d.memory().usedBytes()).append('/').append(d.memory().freeBytes())
                    .append(" keys=").append(d.memory().keyBuffers()).append('#').append(d.memory().keyBytes()).append('B')
                    .append(" scratch=").append(d.memory().scratchBuffers()).append('#')
                    .append(d.memory().scratchBytes()).append('B')
                    .append(' ').append(d.breakerState());
        }
        return line.toString();
    }
}
