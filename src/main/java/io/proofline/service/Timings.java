package io.proofline.service;

import io.proofline.engine.StageTimings;

/**
 * Milliseconds per stage (REST {@code timings}): {@code gpuMs} is prove start on the device (CPU or GPU),
 * {@code finalizeMs} prove finish; {@code totalMs} is the wall time from submission.
 */
public record Timings(long queueWaitMs, long synthesisMs, long gpuWaitMs, long gpuMs, long finalizeMs, long verifyMs,
                      long totalMs) {

    public static final Timings ZERO = new Timings(0, 0, 0, 0, 0, 0, 0);

    public static Timings of(StageTimings t) {
        return new Timings(t.queueWait().toMillis(), t.synthesis().toMillis(), t.gpuWait().toMillis(),
                t.proving().toMillis(), t.finalizing().toMillis(), t.verify().toMillis(), t.total().toMillis());
    }
}
