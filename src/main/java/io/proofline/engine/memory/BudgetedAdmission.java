package io.proofline.engine.memory;

/** {@link AdmissionPolicy#BUDGETED}: every byte a partition will hold is reserved before it is allocated. */
final class BudgetedAdmission implements AdmissionPolicy {

    @Override
    public String name() {
        return "budgeted";
    }

    @Override
    public long admittedBytes(PartitionFootprint footprint) {
        return footprint.total();
    }

    @Override
    public long lateBytes(long lateAbcBytes) {
        return lateAbcBytes;
    }

    @Override
    public int handoffCapacity(int configured) {
        return configured;
    }
}
