package io.proofline.witness.internal;

/**
 * The codes circom's generated code passes to {@code runtime.exceptionHandler(code)}, with the text
 * circom's {@code witness_calculator.js} shows for each.
 */
public enum CircomErrorCode {
    SIGNAL_NOT_FOUND(1, "Signal not found."),
    TOO_MANY_SIGNALS(2, "Too many signals set."),
    SIGNAL_ALREADY_SET(3, "Signal already set."),
    ASSERT_FAILED(4, "Assert Failed."),
    NOT_ENOUGH_MEMORY(5, "Not enough memory."),
    INPUT_ARRAY_OVERFLOW(6, "Input signal array access exceeds the size."),
    OUT_OF_BOUNDS(7, "Out of bounds array access.");

    private final int code;
    private final String text;

    CircomErrorCode(int code, String text) {
        this.code = code;
        this.text = text;
    }

    public int code() {
        return code;
    }

    /** circom's text for {@code code}; "Unknown error." for codes a newer circom may add. */
    public static String describe(int code) {
        for (CircomErrorCode c : values()) {
            if (c.code == code) {
                return c.text;
            }
        }
        return "Unknown error.";
    }
}
