package io.proofline.web;

import java.io.IOException;

/** A request body grew past its limit while being read (bodies without, or with a false, Content-Length). */
final class RequestTooLargeException extends IOException {

    RequestTooLargeException(long limit) {
        super("the request body is larger than the limit of " + limit + " bytes (proofline.store.max-job-size)");
    }
}
