package io.proofline.witness;

/**
 * A witness computation's input, read each time a computation needs it (a computation that leaves the witness graph
 * for the wasm reads it again): a staged {@code input.json} streamed through {@link InputJsonReader}, or a
 * {@link WitnessInput} already in memory.
 */
@FunctionalInterface
public interface InputSource {

    /** Hands every signal with its values to {@code sink}, in the input's order. */
    void feed(FlatInput.Sink sink);
}
