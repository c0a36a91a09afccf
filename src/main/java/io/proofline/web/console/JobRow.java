package io.proofline.web.console;

import io.proofline.engine.JobState;
import io.proofline.engine.Priority;

import java.time.Instant;

/** A job in the console's list. */
public record JobRow(String id, String circuitId, String circuitName, JobState state, Priority priority,
                     int partitions, Instant createdAt) {
}
