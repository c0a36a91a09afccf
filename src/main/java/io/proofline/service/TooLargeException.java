package io.proofline.service;

/** An upload or request beyond its configured limit (413). */
public final class TooLargeException extends ServiceException {

    public TooLargeException(String field, String message) {
        super(field, message);
    }
}
