package io.proofline.engine;

/** No job with this id is known (never submitted, or forgotten after it finished long ago). */
public final class UnknownJobException extends EngineException {

    public UnknownJobException(JobId id) {
        super("unknown job " + id);
    }

    /** The job is known, but not what was asked: {@code why}. */
    public UnknownJobException(JobId id, String why) {
        super("job " + id + ": " + why);
    }
}
