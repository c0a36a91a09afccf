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

    public String message() {
        String what = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return partition == WHOLE_JOB ? what : "partition " + partition + " failed in " + stage + ": " + what;
    }
}
