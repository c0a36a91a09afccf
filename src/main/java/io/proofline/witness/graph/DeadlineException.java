package io.proofline.witness.graph;

/** An evaluation stopped: its thread was interrupted ({@link #interrupted()}), or its deadline passed. */
public final class DeadlineException extends RuntimeException {

    private final boolean interrupted;

    public DeadlineException(boolean interrupted) {
        super(interrupted ? "interrupted" : "deadline passed", null, false, false);
        this.interrupted = interrupted;
    }

    public boolean interrupted() {
        return interrupted;
    }
}
