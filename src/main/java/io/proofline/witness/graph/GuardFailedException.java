package io.proofline.witness.graph;

/**
 * An input took the circuit down another path than the recorded run: a conversion answered otherwise than it did then
 * (another branch, index or loop bound). The graph does not hold this input's witness; the wasm computes it.
 */
public final class GuardFailedException extends RuntimeException {

    public GuardFailedException(String message) {
        super(message, null, false, false);
    }
}
