package io.proofline.engine;

/**
 * A failure that may pass if the work runs again later (an I/O error loading a key, a wait for memory past its
 * deadline, a shutdown): whoever keeps the job durably should requeue it with a backoff, not fail it.
 */
public class RetryableException extends RuntimeException {

    public RetryableException(String message) {
        super(message);
    }

    public RetryableException(String message, Throwable cause) {
        super(message, cause);
    }
}
