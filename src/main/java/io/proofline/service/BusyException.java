package io.proofline.service;

import java.time.Duration;

/** The service cannot take the job now: the queue is full (429) or the instance is draining (503). */
public final class BusyException extends ServiceException {

    private final Duration retryAfter;
    private final boolean draining;

    public BusyException(String message, Duration retryAfter, boolean draining) {
        super(null, message);
        this.retryAfter = retryAfter;
        this.draining = draining;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    public boolean draining() {
        return draining;
    }
}
