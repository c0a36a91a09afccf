package io.proofline.engine.groth16;

/**
 * A partition's witness (uploaded or computed) does not fit its circuit: wrong curve or length, {@code w[0] ≠ 1},
 * a failed constraint, or an {@code input.json} the witness calculator refused. The partition's fault, not the
 * device's.
 */
public final class WitnessRejectedException extends Exception {

    public WitnessRejectedException(String message) {
        super(message);
    }

    public WitnessRejectedException(String message, Throwable cause) {
        super(message, cause);
    }
}
