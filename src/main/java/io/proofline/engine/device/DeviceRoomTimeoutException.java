package io.proofline.engine.device;

import io.proofline.engine.JobId;
import io.proofline.engine.RetryableException;
import java.time.Duration;

/**
 * A partition waited longer than {@link io.proofline.engine.EngineConfig#admissionWait()} for room on a device that refused it for
 * capacity ({@link io.proofline.snark.prover.DeviceCapacityException}): the job is ended so that the work behind it moves, and should run
 * again later.
 */
public final class DeviceRoomTimeoutException extends RetryableException {

    public DeviceRoomTimeoutException(JobId id, int partition, Duration waited, Throwable lastRefusal) {
        super("job " + id + " partition " + partition + " waited " + waited.toMillis()
                + " ms for room on a device; it may run again later", lastRefusal);
    }
}
