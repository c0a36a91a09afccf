package io.proofline.algebra.curve;

/**
 * An encoded point (or a point in memory, such as a proving key's bases) that is not an element of the group it
 * claims to be in. {@link #reason()} says which check failed; the message names the group, the format and, for
 * arrays, the index of the first bad point.
 */
public final class InvalidPointException extends IllegalArgumentException {

    /** Why a point was rejected, in the order the checks run. */
    public enum Reason {
        /** The input has the wrong number of bytes or elements. */
        BAD_LENGTH,
        /** Not a number, or a JSON shape other than the expected one. */
        MALFORMED,
        /** A coordinate is not below the field modulus (or a padding byte is set). */
        NOT_REDUCED,
        /** The coordinates do not satisfy the curve equation. */
        NOT_ON_CURVE,
        /** On the curve but not in the prime-order subgroup. */
        NOT_IN_SUBGROUP
    }

    private final Reason reason;

    public InvalidPointException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
