package io.proofline.gpu.internal;

/**
 * Where a multi-kernel operation (an MSM, its sort, a prove start) marks the end of each of its steps on the stream
 * that runs it, so that a caller who wants the steps' device times can record them; {@link #NONE} records nothing,
 * and is what proofs that are served use.
 */
@FunctionalInterface
public interface StepTimes {

    /** Records nothing. */
    StepTimes NONE = (stage, stream) -> { };

    /** Marks the end of {@code stage} on {@code stream} (the first mark of a sequence opens it as "start"). */
    void mark(String stage, GpuStream stream);

    /**
     * A view that marks into this one with {@code step + ": "} before each stage's name: the parts of one step of a
     * longer sequence (an MSM's stages inside prove start).
     */
    default StepTimes within(String step) {
        return this == NONE ? NONE : (stage, stream) -> mark(step + ": " + stage, stream);
    }
}
