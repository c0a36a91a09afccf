package io.proofline.service;

/**
 * A field is malformed (400) or well-formed but unusable for its circuit (422: witness of another curve or length,
 * an invalid zkey, an input for a circuit without a witness calculator).
 */
public final class InvalidFieldException extends ServiceException {

    private final boolean unprocessable;

    private InvalidFieldException(String field, String message, boolean unprocessable) {
        super(field, message);
        this.unprocessable = unprocessable;
    }

    /** The field cannot be read (400). */
    public static InvalidFieldException malformed(String field, String message) {
        return new InvalidFieldException(field, message, false);
    }

    /** The field is readable but does not fit (422). */
    public static InvalidFieldException unprocessable(String field, String message) {
        return new InvalidFieldException(field, message, true);
    }

    public boolean unprocessable() {
        return unprocessable;
    }
}
