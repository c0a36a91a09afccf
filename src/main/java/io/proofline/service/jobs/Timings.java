package io.proofline.service.jobs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.proofline.engine.StageTimings;

/**
 * Milliseconds per stage (REST {@code timings}): {@code deviceWaitMs} is the wait for a device after synthesis,
 * {@code provingMs} prove start on the device (CPU or GPU), {@code finalizeMs} prove finish; {@code totalMs} is the wall
 * time from submission. A job's timings also split the submit call that made it ({@code intake},
 * {@link IntakeTimings}); a partition's have none. The fields' earlier names, {@code gpuWaitMs} and {@code gpuMs}, are
 * written beside the new ones and read for one release (docs/API.md).
 */
public record Timings(long queueWaitMs, long synthesisMs, long deviceWaitMs, long provingMs, long finalizeMs,
                      long verifyMs, long totalMs,
                      @JsonInclude(JsonInclude.Include.NON_NULL) IntakeTimings intake) {

    public static final Timings ZERO = new Timings(0, 0, 0, 0, 0, 0, 0);

    public Timings(long queueWaitMs, long synthesisMs, long deviceWaitMs, long provingMs, long finalizeMs,
                   long verifyMs, long totalMs) {
        this(queueWaitMs, synthesisMs, deviceWaitMs, provingMs, finalizeMs, verifyMs, totalMs, null);
    }

    /** Reads either name of the renamed fields (rows and answers written before the rename have only the old). */
    @JsonCreator
    static Timings read(@JsonProperty("queueWaitMs") long queueWaitMs, @JsonProperty("synthesisMs") long synthesisMs,
                        @JsonProperty("deviceWaitMs") Long deviceWaitMs, @JsonProperty("gpuWaitMs") Long gpuWaitMs,
                        @JsonProperty("provingMs") Long provingMs, @JsonProperty("gpuMs") Long gpuMs,
                        @JsonProperty("finalizeMs") long finalizeMs, @JsonProperty("verifyMs") long verifyMs,
                        @JsonProperty("totalMs") long totalMs, @JsonProperty("intake") IntakeTimings intake) {
        return new Timings(queueWaitMs, synthesisMs, either(deviceWaitMs, gpuWaitMs), either(provingMs, gpuMs),
                finalizeMs, verifyMs, totalMs, intake);
    }

    private static long either(Long current, Long earlier) {
        return current != null ? current : earlier != null ? earlier : 0;
    }

    public static Timings of(StageTimings t) {
        return new Timings(t.queueWait().toMillis(), t.synthesis().toMillis(), t.deviceWait().toMillis(),
                t.proving().toMillis(), t.finalizing().toMillis(), t.verify().toMillis(), t.total().toMillis());
    }

    /** These timings with the submit call's split ({@code null}: none). */
    public Timings withIntake(IntakeTimings split) {
        return new Timings(queueWaitMs, synthesisMs, deviceWaitMs, provingMs, finalizeMs, verifyMs, totalMs, split);
    }

    /** {@link #deviceWaitMs} under its earlier name, for one release. */
    @Deprecated
    @JsonProperty("gpuWaitMs")
    public long gpuWaitMs() {
        return deviceWaitMs;
    }

    /** {@link #provingMs} under its earlier name, for one release. */
    @Deprecated
    @JsonProperty("gpuMs")
    public long gpuMs() {
        return provingMs;
    }
}
