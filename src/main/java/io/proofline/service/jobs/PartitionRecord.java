package io.proofline.service.jobs;

import io.proofline.engine.PartitionInput;
import io.proofline.engine.Stage;

/** One partition of a job as the database keeps it; its input bytes are a file under the data directory. */
public record PartitionRecord(String jobId, int index, PartitionInput.Format format, long bytes, Stage stage,
                              String device, Timings timings) {
}
