package io.proofline.witness.internal;

/** A module whose field code cannot run on the host (not laid out as circom lays it out): it runs as compiled. */
public final class UnsupportedModuleException extends RuntimeException {

    public UnsupportedModuleException(String message) {
        super(message, null, false, false);
    }
}
