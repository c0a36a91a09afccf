package io.proofline.service;

/** The request conflicts with the state of the resource (409): e.g. deleting a circuit that jobs still use. */
public final class ConflictException extends ServiceException {

    public ConflictException(String field, String message) {
        super(field, message);
    }
}
