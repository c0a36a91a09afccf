package io.proofline.gpu.internal;

/**
 * What one prove start on a {@link GpuProverWorker} tells an observer, in order: it {@link #begins} (its key
 * resident), marks its device steps through {@link #steps} of each stream, has queued stream w's work
 * ({@link #streamWQueued}), ends host steps ({@link #hostStep}) and {@link #ends} once its device work is done. The
 * product's probe is {@link #NONE}: nothing recorded, nothing added to the streams. The lab's timing harness passes
 * one that records each step's device time ({@code io.proofline.lab.gpu}).
 */
public interface ProveStartProbe {

    /** Observes nothing. */
    ProveStartProbe NONE = new ProveStartProbe() {
    };

    /** The prove start's key is resident and its device work is about to be queued. */
    default void begins() {
    }

    /** Where stream {@code "w"} (the witness's MSMs) or {@code "h"} (a/b/c, H, ΣB1, ΣH) marks its steps. */
    default StepTimes steps(String stream) {
        return StepTimes.NONE;
    }

    /**
     * Stream w's work is queued on {@code w}, and stream h's is queued on {@code h} next. A probe may make {@code h}
     * wait for {@code w} here, so that every step runs alone on the device and its span is its own device time.
     */
    default void streamWQueued(GpuStream w, GpuStream h) {
    }

    /** A host step ended: the enqueueing, the wait for the device, the last MSM's Horner step. */
    default void hostStep(String step) {
    }

    /** The device work is done and the sums collected; the steps' marks can be read until this returns. */
    default void ends() {
    }
}
