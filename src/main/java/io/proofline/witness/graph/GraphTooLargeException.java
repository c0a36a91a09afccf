package io.proofline.witness.graph;

/** Recording passed the graph's node limit: the circuit is left to the wasm. */
public final class GraphTooLargeException extends RuntimeException {

    public GraphTooLargeException(String message) {
        super(message, null, false, false);
    }
}
