package io.proofline.witness.internal;

/**
 * Thrown by the {@code runtime.exceptionHandler} import to unwind the wasm call, as the JavaScript
 * runtime's {@code throw new Error(...)} does. It never leaves the calculator: it is turned into a
 * {@link io.proofline.witness.WitnessException} with circom's message.
 */
public final class CircomAbort extends RuntimeException {

    private final int code;

    public CircomAbort(int code) {
        super("circom exceptionHandler(" + code + ")", null, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
