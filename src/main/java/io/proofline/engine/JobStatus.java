package io.proofline.engine;

import java.util.List;
import java.util.Optional;

/** A job as a client sees it (REST {@code GET /api/v1/jobs/{id}}). */
public record JobStatus(JobId id, String circuitId, JobState state, Priority priority, List<PartitionStatus> partitions,
                        StageTimings timings, Optional<JobFailure> failure) {

    public JobStatus {
        partitions = List.copyOf(partitions);
    }
}
