package io.proofline.engine;

import java.time.Duration;

/** The job's deadline passed before all its partitions finished; the rest were cancelled. */
public final class DeadlineExceededException extends EngineException {

    public DeadlineExceededException(JobId id, Duration deadline) {
        super("job " + id + " missed its deadline of " + deadline.toMillis() + " ms");
    }
}
