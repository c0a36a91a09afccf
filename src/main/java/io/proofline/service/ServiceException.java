package io.proofline.service;

/**
 * A request the service refuses, naming the field at fault; the web layer turns each kind into an RFC 9457
 * problem with its status.
 */
public abstract sealed class ServiceException extends RuntimeException
        permits NotFoundException, InvalidFieldException, ConflictException, TooLargeException, BusyException,
        QuotaExceededException, ForbiddenException {

    private final String field;

    ServiceException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The request field (JSON property, multipart part or path variable) at fault; may be null. */
    public String field() {
        return field;
    }
}
