package io.proofline.engine;

/** The engine is draining or shut down and takes no new jobs (REST: 503). */
public final class IntakeClosedException extends RejectedException {

    public IntakeClosedException(String why) {
        super("not accepting jobs: " + why);
    }
}
