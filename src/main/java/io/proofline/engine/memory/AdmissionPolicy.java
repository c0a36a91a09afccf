package io.proofline.engine.memory;

/**
 * What the pipeline reserves from the {@link MemoryBudget} for a partition, and how many synthesized partitions may
 * wait for a device. The product runs {@link #BUDGETED}; the engine takes another only through
 * {@link io.proofline.engine.EngineConfig.Builder#admission}, which the lab uses to replay the pre-fix design of
 * DESIGN §1 beside the product (the pipeline benchmark, the memory-limit tests).
 */
public interface AdmissionPolicy {

    /** The product: a partition's whole footprint before synthesis, late a/b/c before prove start, a bounded hand-off. */
    AdmissionPolicy BUDGETED = new BudgetedAdmission();

    /** A short name for the console and benchmark output. */
    String name();

    /** Bytes the dispatcher reserves, before synthesis, for a partition of this footprint. */
    long admittedBytes(PartitionFootprint footprint);

    /** Bytes reserved before prove start on a device that needs {@code lateAbcBytes} of a/b/c evaluated on the host. */
    long lateBytes(long lateAbcBytes);

    /** How many synthesized partitions may wait for a device, given the configured bound; 0 or less: no bound. */
    int handoffCapacity(int configured);
}
