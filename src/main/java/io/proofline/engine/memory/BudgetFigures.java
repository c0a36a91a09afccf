package io.proofline.engine.memory;

/** The memory budget as the buffer table shows it. */
public record BudgetFigures(long totalBytes, long reservedBytes, long peakReservedBytes) {

    public static final BudgetFigures NONE = new BudgetFigures(0, 0, 0);
}
