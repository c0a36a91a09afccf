package io.proofline.service;

/** No circuit or job with the id given (404). */
public final class NotFoundException extends ServiceException {

    public NotFoundException(String field, String message) {
        super(field, message);
    }
}
