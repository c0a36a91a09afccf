package io.proofline.service.jobs;

import io.proofline.engine.JobState;
import io.proofline.engine.Priority;

import java.time.Instant;

/** A job as the database keeps it. */
public record JobRecord(String id, String circuitId, String requestId, JobState status, Priority priority,
                        Boolean verify, int partitions, String owner, int attempts, boolean cancelRequested,
                        String error, Timings timings, Instant createdAt, Instant startedAt, Instant finishedAt) {
}
