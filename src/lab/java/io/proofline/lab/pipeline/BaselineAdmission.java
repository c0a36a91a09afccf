package io.proofline.lab.pipeline;

import io.proofline.engine.memory.AdmissionPolicy;
import io.proofline.engine.memory.PartitionFootprint;

/**
 * The pre-fix design of DESIGN §1, for the lab only: nothing is reserved, and the hand-off to the proving stage has
 * no bound, so a synthesis worker frees its slot as soon as it has synthesized and partitions pile up in front of a
 * slow prover. The pipeline benchmark and the memory-limit tests run it beside the product to show what the budget
 * prevents.
 */
public final class BaselineAdmission implements AdmissionPolicy {

    public static final BaselineAdmission INSTANCE = new BaselineAdmission();

    private BaselineAdmission() {
    }

    @Override
    public String name() {
        return "baseline";
    }

    @Override
    public long admittedBytes(PartitionFootprint footprint) {
        return 0;
    }

    @Override
    public long lateBytes(long lateAbcBytes) {
        return 0;
    }

    @Override
    public int handoffCapacity(int configured) {
        return 0;
    }
}
