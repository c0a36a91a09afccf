package io.proofline.engine;

/**
 * Why a job failed.
 *
 * @param partition the partition that failed, or {@link #WHOLE_JOB} (a missed deadline)
 * @param stage     the stage it failed in
 * @param cause     what was thrown (an adapter's exception, or an {@link EngineException})
 */
public record JobFailure(int partition, Stage stage, Throwable cause) {

    public static final int WHOLE_JOB = -1;
    /**
     * The most characters of a failure's message the engine keeps once the job has finished: what the job store
     * keeps too ({@code jobs.error varchar(4000)}).
     */
    public static final int RETAINED_MESSAGE_CHARS = 4000;

    /**
     * This failure as the engine keeps it after the end: its cause reduced to a bounded {@link RetainedFailure}, or,
     * where the failure may pass ({@link RetryableException} in its chain), to a bare {@link RetryableException} with
     * the message cut the same way, so that whoever reads it later still sees it is worth running again.
     */
    public JobFailure retained() {
        if (cause instanceof RetainedFailure || cause instanceof RetainedFailure.Retryable) {
            return this;
        }
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetryableException) {
                return new JobFailure(partition, stage, RetainedFailure.retryable(cause, RETAINED_MESSAGE_CHARS));
            }
        }
        return new JobFailure(partition, stage, RetainedFailure.of(cause, RETAINED_MESSAGE_CHARS));
    }

    /** An upper bound of the heap a {@link #retained()} failure holds. */
    public long retainedHeapBytes() {
        return RetainedFailure.heapBytes(cause);
    }

    public String message() {
        String what = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return partition == WHOLE_JOB ? what : "partition " + partition + " failed in " + stage + ": " + what;
    }
}
