package io.proofline.engine.memory;

/**
 * What the pipeline reserves from the {@link MemoryBudget} for a partition, and how many synthesized partitions may
 * wait for a device. The product runs {@link #BUDGETED}; the engine takes another only through
 * {@link io.proofline.engine.EngineConfig.Builder#admission}, which the lab uses to replay the pre-fix design of
 * DESIGN §1 beside the product (the pipeline benchmark, the memory-limit tests).
 */
public interface AdmissionPolicy {

    /**
     * The product: before synthesis, a partition's whole footprint and the a/b/c any device may need evaluated in
     * prove start (nothing is reserved later); a bounded hand-off.
     */
    AdmissionPolicy BUDGETED = new BudgetedAdmission();

    /** A short name for the console and benchmark output. */
    String name();

    /**
     * Bytes the dispatcher reserves, before synthesis, for a partition of this footprint whose devices may need up to
     * {@code lateAbcBytes} of a/b/c evaluated on the host in prove start (the CPU fallback beside GPUs that evaluate
     * them on the device).
     */
    long admittedBytes(PartitionFootprint footprint, long lateAbcBytes);

    /** How many synthesized partitions may wait for a device, given the configured bound; 0 or less: no bound. */
    int handoffCapacity(int configured);
}
