package io.proofline.engine;

import java.time.Duration;

/**
 * A partition waited longer than {@link EngineConfig#admissionWait()} for memory (at the head of the queue, or for
 * the a/b/c its device needs evaluated late) because partitions in flight did not give it back: the job is ended
 * so that the work behind it moves, and should run again later.
 */
public final class AdmissionTimeoutException extends RetryableException {

    public AdmissionTimeoutException(JobId id, long bytes, Duration waited) {
        super("job " + id + " waited " + waited.toMillis() + " ms for " + bytes
                + " B of memory; it may run again later");
    }
}
