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

    /** A retained failure that may pass: a {@link RetryableException} of the cut message, no cause, no stack. */
    public static final class Retryable extends RetryableException {
        private Retryable(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // nothing of the retiring thread's stack is kept
        }
    }

    /** {@code cause}, which may pass, cut to {@code maxChars} characters of message. */
    public static RetryableException retryable(Throwable cause, int maxChars) {
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new Retryable(truncate(message, maxChars));
    }

    /** An upper bound of the heap a retained failure ({@link #of}, {@link #retryable}) holds. */
    public static long heapBytes(Throwable retained) {
        long extra = retained instanceof RetainedFailure r ? 2L * r.originalClass.length() : 0;
        String message = retained.getMessage();
        return 2L * (message == null ? 0 : message.length()) + extra + 96;
    }

    /** The class of the failure this stands for. */
    public String originalClass() {
        return originalClass;
    }

    /** The length of the original message. */
    public int originalLength() {
        return originalLength;
    }

}
