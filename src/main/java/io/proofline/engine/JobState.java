package io.proofline.engine;

/** A job's state as a client sees it; derived from its partitions' stages. */
public enum JobState {
    /** No partition has left the queue. */
    QUEUED,
    /** At least one partition is past the queue and the job has not finished. */
    RUNNING,
    /** Every partition produced a (verified, where asked) proof. */
    DONE,
    /** A partition failed, or the deadline passed; the remaining partitions were skipped. */
    FAILED,
    /** Cancelled by a caller or by shutdown. */
    CANCELLED;

    public boolean isTerminal() {
        return this == DONE || this == FAILED || this == CANCELLED;
    }
}
