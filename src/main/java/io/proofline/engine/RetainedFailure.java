package io.proofline.engine;

/**
 * A finished job's failure as the engine keeps it after the end: the original's class name and message, the message
 * cut to a bounded length with a note saying how much was cut, and nothing else (no stack trace, no cause chain, no
 * wasm log: a witness calculator's failure may carry a megabyte of it). The job's live result had the original.
 */
public final class RetainedFailure extends RuntimeException {

    private final String originalClass;
    private final int originalLength;

    private RetainedFailure(String message, String originalClass, int originalLength) {
        super(message, null, false, false);
        this.originalClass = originalClass;
        this.originalLength = originalLength;
    }

    /** {@code cause} cut to {@code maxChars} characters of message. */
    public static RetainedFailure of(Throwable cause, int maxChars) {
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new RetainedFailure(truncate(message, maxChars), cause.getClass().getName(), message.length());
    }

    /**
     * {@code text} itself when it has at most {@code maxChars} characters, else its first {@code maxChars} and a note
     * of the characters left out.
     */
    public static String truncate(String text, int maxChars) {
        if (text.length() <= maxChars) {
            return text;
        }
        return text.substring(0, maxChars) + " … [" + (text.length() - maxChars) + " more characters not kept]";
    }

    /** The class of the failure this stands for. */
    public String originalClass() {
        return originalClass;
    }

    /** The length of the original message. */
    public int originalLength() {
        return originalLength;
    }

    /** The heap this keeps, as {@link #getMessage()}'s characters at two bytes each plus the objects' headers. */
    public long heapBytes() {
        return 2L * (getMessage().length() + originalClass.length()) + 96;
    }
}
