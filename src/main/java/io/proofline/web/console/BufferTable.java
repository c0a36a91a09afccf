package io.proofline.web.console;

import io.proofline.engine.memory.BufferCell;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.Stage;

import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard's buffer table: buffer classes as rows (in the order an operator reads a pile-up: a/b/c first,
 * then what a partition carries, then what outlives partitions, then uploads), stages as columns. Each non-empty
 * cell carries a heat from 0 to 1 on a logarithmic scale of its bytes against the largest cell, so that a 16 GiB
 * pile in {@code AWAITING_DEVICE} stands out beside megabyte handles; {@code console.js} computes the same.
 */
public record BufferTable(List<Stage> stages, List<Row> rows, long totalBytes) {

    /** The row order of DESIGN §1's lesson: the a/b/c vectors are what piles up. */
    public static final List<BufferClass> ROW_ORDER = List.of(BufferClass.ABC, BufferClass.WITNESS,
            BufferClass.PENDING, BufferClass.KEY_HOST, BufferClass.KEY_DEVICE, BufferClass.SCRATCH_DEVICE,
            BufferClass.TWIDDLES, BufferClass.INPUT);

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

    /** Cells this many factors of ten below the largest get the faintest tint. */
    static final double HEAT_DECADES = 3;

    /**
     * {@code 0.12 + 0.88 · max(0, 1 − log₁₀(max / bytes) / 3)}: the largest cell is full strength, each factor of
     * ten below it is a step fainter, and anything live (even a few-byte handle beside 16 GiB piles) stays visible.
     */
    static double heat(long bytes, long max) {
        if (bytes <= 0 || max <= 0) {
            return 0;
        }
        double decadesBelow = Math.log10((double) max / bytes);
        return 0.12 + 0.88 * Math.max(0, 1 - decadesBelow / HEAT_DECADES);
    }

    static String label(BufferClass bufferClass) {
        return switch (bufferClass) {
            case ABC -> "a/b/c";
            case WITNESS -> "witness";
            case PENDING -> "pending";
            case KEY_HOST -> "key (host)";
            case KEY_DEVICE -> "key (GPU)";
            case SCRATCH_DEVICE -> "GPU scratch";
            case TWIDDLES -> "NTT twiddles";
            case INPUT -> "input";
        };
    }
}
