package io.proofline.web.console;

import io.proofline.engine.BufferCell;
import io.proofline.engine.BufferClass;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.Stage;

import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard's buffer table: buffer classes as rows (in the order an operator reads a pile-up: a/b/c first,
 * then what a partition carries, then what outlives partitions, then uploads), stages as columns. Each non-empty
 * cell carries a heat from 0 to 1 on a logarithmic scale of its bytes against the largest cell, so that a 16 GiB
 * pile in {@code AWAITING_GPU} stands out beside kilobyte handles; {@code console.js} computes the same.
 */
public record BufferTable(List<Stage> stages, List<Row> rows, long totalBytes) {

    /** The row order of DESIGN §1's lesson: the a/b/c vectors are what piles up. */
    public static final List<BufferClass> ROW_ORDER = List.of(BufferClass.ABC, BufferClass.WITNESS,
            BufferClass.PENDING, BufferClass.KEY_HOST, BufferClass.KEY_DEVICE, BufferClass.SCRATCH_DEVICE,
            BufferClass.INPUT);

    public record Row(BufferClass bufferClass, String label, List<Cell> cells, long count, long bytes) {
    }

    public record Cell(Stage stage, long count, long bytes, double heat) {

        public boolean empty() {
            return count == 0 && bytes == 0;
        }

        /** The cell's background: transparent when empty, else a warm tint whose strength is the heat. */
        public String style() {
            if (empty()) {
                return "";
            }
            return String.format(java.util.Locale.ROOT, "--heat:%.3f", heat);
        }
    }

    public static BufferTable of(PipelineSnapshot snapshot) {
        List<Stage> stages = List.of(Stage.values());
        long max = snapshot.cells().stream().mapToLong(BufferCell::bytes).max().orElse(0);
        long total = 0;
        List<Row> rows = new ArrayList<>();
        for (BufferClass bufferClass : ROW_ORDER) {
            List<Cell> cells = new ArrayList<>(stages.size());
            for (Stage stage : stages) {
                BufferCell c = snapshot.cell(bufferClass, stage);
                cells.add(new Cell(stage, c.count(), c.bytes(), heat(c.bytes(), max)));
            }
            long bytes = snapshot.bytes(bufferClass);
            total += bytes;
            rows.add(new Row(bufferClass, label(bufferClass), cells, snapshot.count(bufferClass), bytes));
        }
        return new BufferTable(stages, rows, total);
    }

    /**
     * {@code 0.15 + 0.85 · ln(1 + bytes) / ln(1 + max)}: any live buffer is visible, the largest cell is full
     * strength, and each factor of ten in between adds about the same tint.
     */
    static double heat(long bytes, long max) {
        if (bytes <= 0 || max <= 0) {
            return 0;
        }
        return 0.15 + 0.85 * Math.log1p(bytes) / Math.log1p(max);
    }

    static String label(BufferClass bufferClass) {
        return switch (bufferClass) {
            case ABC -> "a/b/c";
            case WITNESS -> "witness";
            case PENDING -> "pending";
            case KEY_HOST -> "key (host)";
            case KEY_DEVICE -> "key (GPU)";
            case SCRATCH_DEVICE -> "GPU scratch";
            case INPUT -> "input";
        };
    }
}
