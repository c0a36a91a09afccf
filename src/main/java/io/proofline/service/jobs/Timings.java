package io.proofline.service.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.proofline.engine.StageTimings;

/**
 * Milliseconds per stage (REST {@code timings}): {@code gpuMs} is prove start on the device (CPU or GPU),
 * {@code finalizeMs} prove finish; {@code totalMs} is the wall time from submission. A job's timings also split the
 * submit call that made it ({@code intake}, {@link IntakeTimings}); a partition's have none.
 */
public record Timings(long queueWaitMs, long synthesisMs, long gpuWaitMs, long gpuMs, long finalizeMs, long verifyMs,
                      long totalMs, @JsonInclude(JsonInclude.Include.NON_NULL) IntakeTimings intake) {

    public static final Timings ZERO = new Timings(0, 0, 0, 0, 0, 0, 0);

    public Timings(long queueWaitMs, long synthesisMs, long gpuWaitMs, long gpuMs, long finalizeMs, long verifyMs,
                   long totalMs) {
        this(queueWaitMs, synthesisMs, gpuWaitMs, gpuMs, finalizeMs, verifyMs, totalMs, null);
    }

    public static Timings of(StageTimings t) {
        return new Timings(t.queueWait().toMillis(), t.synthesis().toMillis(), t.gpuWait().toMillis(),
                t.proving().toMillis(), t.finalizing().toMillis(), t.verify().toMillis(), t.total().toMillis());
    }

    /** These timings with the submit call's split ({@code null}: none). */
    public Timings withIntake(IntakeTimings split) {
        return new Timings(queueWaitMs, synthesisMs, gpuWaitMs, gpuMs, finalizeMs, verifyMs, totalMs, split);
    }
}
