package io.proofline.engine;

/** One partition of the job needs more bytes than the whole budget: it could never run (REST: 413/422). */
public final class PartitionTooLargeException extends RejectedException {

    private final long partitionBytes;
    private final long budgetBytes;

    public PartitionTooLargeException(String circuitId, long partitionBytes, long budgetBytes) {
        super("a partition of circuit " + circuitId + " needs " + partitionBytes + " B but the memory budget is "
                + budgetBytes + " B: it can never run here");
        this.partitionBytes = partitionBytes;
        this.budgetBytes = budgetBytes;
    }

    public long partitionBytes() {
        return partitionBytes;
    }

    public long budgetBytes() {
        return budgetBytes;
    }
}
