package io.proofline.service;

/**
 * The request is understood and the caller is known, but its key may not do this (403): for example deleting a
 * circuit registered before tenancy, which every key may use, is the admin's decision.
 */
public final class ForbiddenException extends ServiceException {

    public ForbiddenException(String field, String message) {
        super(field, message);
    }
}
