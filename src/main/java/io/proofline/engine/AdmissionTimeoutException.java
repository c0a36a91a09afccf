package io.proofline.engine;

import java.time.Duration;

/**
 * The partition at the head of the queue waited longer than {@link EngineConfig#admissionWait()} for its memory
 * (partitions in flight did not give it back): the job is ended so that the work behind it moves, and should run
 * again later.
 */
public final class AdmissionTimeoutException extends RetryableException {

    public AdmissionTimeoutException(JobId id, long bytes, Duration waited) {
        super("job " + id + " waited " + waited.toMillis() + " ms for " + bytes
                + " B of memory to start a partition; it goes back to the queue");
    }
}
