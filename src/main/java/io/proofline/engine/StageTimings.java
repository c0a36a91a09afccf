package io.proofline.engine;

import java.time.Duration;

/**
 * Time spent per stage: for one partition, or summed over a job's partitions ({@code total} is then the
 * job's wall time from submission). A stage still in progress counts up to now.
 */
public record StageTimings(Duration queueWait, Duration synthesis, Duration deviceWait, Duration proving,
                           Duration finalizing, Duration verify, Duration total) {

    public static final StageTimings ZERO = new StageTimings(Duration.ZERO, Duration.ZERO, Duration.ZERO,
            Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    /** Adds the stage durations of {@code other}, keeping this {@code total}. */
    public StageTimings plusStages(StageTimings other) {
        return new StageTimings(queueWait.plus(other.queueWait), synthesis.plus(other.synthesis),
                deviceWait.plus(other.deviceWait), proving.plus(other.proving), finalizing.plus(other.finalizing),
                verify.plus(other.verify), total);
    }

    public StageTimings withTotal(Duration wall) {
        return new StageTimings(queueWait, synthesis, deviceWait, proving, finalizing, verify, wall);
    }
}
