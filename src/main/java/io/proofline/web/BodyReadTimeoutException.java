package io.proofline.web;

import java.io.IOException;

/** A request body still arriving past its read deadline: a slow sender may not hold a worker thread. */
final class BodyReadTimeoutException extends IOException {

    BodyReadTimeoutException(long timeoutMs) {
        super("the request body was not received within " + timeoutMs + " ms");
    }
}
