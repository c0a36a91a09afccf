package io.proofline.engine;

import java.time.Duration;

/** The queue has no room for the job's partitions now (REST: 429 with {@code Retry-After}). */
public final class QueueFullException extends RejectedException {

    private final Duration retryAfter;

    public QueueFullException(int queued, int wanted, int capacity, Duration retryAfter) {
        super("queue full: " + queued + " of " + capacity + " partitions queued, the job needs " + wanted
                + "; retry after " + retryAfter.toSeconds() + " s");
        this.retryAfter = retryAfter;
    }

    /** When trying again makes sense. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
