package io.proofline.engine;

import java.util.List;
import java.util.Optional;

/**
 * A finished job.
 *
 * @param proofs one per partition, in partition order, when {@code state} is {@link JobState#DONE}; else empty
 */
public record JobResult(JobId id, JobState state, List<ProofOutput> proofs, Optional<JobFailure> failure,
                        StageTimings timings) {

    public JobResult {
        proofs = List.copyOf(proofs);
    }
}
