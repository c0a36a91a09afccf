package io.proofline.engine.memory;

/**
 * {@link AdmissionPolicy#BUDGETED}: every byte a partition may hold, on whichever path it takes, is reserved before it
 * is synthesized.
 */
final class BudgetedAdmission implements AdmissionPolicy {

    @Override
    public String name() {
        return "budgeted";
    }

    @Override
    public long admittedBytes(PartitionFootprint footprint, long lateAbcBytes) {
        return Math.addExact(footprint.total(), lateAbcBytes);
    }

    @Override
    public int handoffCapacity(int configured) {
        return configured;
    }
}
