package io.proofline.web;

import java.io.IOException;

/** A request body grew past its limit while being read (bodies without, or with a false, Content-Length). */
final class RequestTooLargeException extends IOException {

    RequestTooLargeException(BodyLimits.Limit limit) {
        super(message(limit));
    }

    static String message(BodyLimits.Limit limit) {
        return "the request body is larger than the limit of " + limit.bytes() + " bytes (" + limit.setting() + ")";
    }
}
