package io.proofline.witness.graph;

/**
 * An operand for which circom's wasm does something this implementation does not reproduce (integer division by
 * zero): the witness is left to the wasm.
 */
public final class UnsupportedOperandException extends RuntimeException {

    public UnsupportedOperandException(String message) {
        super(message, null, false, false);
    }
}
