package io.proofline.web;

import java.io.IOException;

/** A request body still arriving past its read deadline, or silent too long: a slow sender may not hold a thread. */
final class BodyReadTimeoutException extends IOException {

    BodyReadTimeoutException(long timeoutMs) {
        super("the request body was not received within " + timeoutMs + " ms (proofline.store.body-read-timeout)");
    }

    private BodyReadTimeoutException(String message) {
        super(message);
    }

    /** A body that sent nothing for the container's upload timeout ({@code proofline.uploads.idle-timeout}). */
    static BodyReadTimeoutException idle(long idleMs) {
        return new BodyReadTimeoutException("the request body sent nothing for " + idleMs
                + " ms (proofline.uploads.idle-timeout)");
    }
}
