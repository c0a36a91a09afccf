package io.proofline.web.console;

import io.proofline.engine.PartitionStatus;
import io.proofline.engine.StageTimings;

import java.util.List;
import java.util.Optional;

/**
 * A job on its own page: its partitions with their stage timings (the waterfall) and the job's sums.
 *
 * @param timings the job's stage times summed over its partitions, {@code total} its wall time
 */
public record JobDetail(JobRow job, List<PartitionStatus> partitions, StageTimings timings, Optional<String> error) {

    public JobDetail {
        partitions = List.copyOf(partitions);
    }
}
