package io.proofline.engine;

/**
 * The stages a partition passes through (DESIGN §3), and the columns of the buffer table:
 * {@code QUEUED → SYNTHESIZING → AWAITING_DEVICE → PROVING → FINALIZING → VERIFYING → DONE},
 * or {@code FAILED} / {@code CANCELLED} from any stage.
 */
public enum Stage {
    QUEUED,
    SYNTHESIZING,
    AWAITING_DEVICE,
    PROVING,
    FINALIZING,
    VERIFYING,
    DONE,
    FAILED,
    CANCELLED,
    /**
     * Not a partition stage: the column for buffers that outlive partitions (cached proving keys,
     * per-worker device scratch). No partition is ever in it.
     */
    RESIDENT;

    /** Whether a partition in this stage has finished (successfully or not). */
    public boolean isTerminal() {
        return this == DONE || this == FAILED || this == CANCELLED;
    }
}
