package io.proofline.service.jobs;

import io.proofline.engine.JobState;
import io.proofline.engine.PartitionStatus;

import java.util.List;

/**
 * Published when this instance finished running a job (for metrics).
 *
 * @param state      how it ended
 * @param partitions each partition's last stage and timings
 * @param reason     the failure's cause class, or empty
 */
public record JobFinishedEvent(String jobId, String circuitId, JobState state, List<PartitionStatus> partitions,
                               String reason) {
}
