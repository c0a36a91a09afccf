package io.proofline.engine.pipeline;

import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;

import java.time.Duration;

/** The time one partition spent in each stage; a stage entered twice (a device retry) accumulates. */
final class StageClock {

    private final long submittedNanos;
    private final long[] spentNanos = new long[Stage.values().length];
    private Stage current = Stage.QUEUED;
    private long enteredNanos;
    private long endedNanos = -1;

    StageClock(long submittedNanos) {
        this.submittedNanos = submittedNanos;
        this.enteredNanos = submittedNanos;
    }

    synchronized void enter(Stage next, long nowNanos) {
        spentNanos[current.ordinal()] += nowNanos - enteredNanos;
        current = next;
        enteredNanos = nowNanos;
        if (next.isTerminal()) {
            endedNanos = nowNanos;
        }
    }

    synchronized StageTimings timings(long nowNanos) {
        long[] spent = spentNanos.clone();
        if (!current.isTerminal()) {
            spent[current.ordinal()] += nowNanos - enteredNanos;
        }
        long end = endedNanos >= 0 ? endedNanos : nowNanos;
        return new StageTimings(of(spent, Stage.QUEUED), of(spent, Stage.SYNTHESIZING), of(spent, Stage.AWAITING_DEVICE),
                of(spent, Stage.PROVING), of(spent, Stage.FINALIZING), of(spent, Stage.VERIFYING),
                Duration.ofNanos(end - submittedNanos));
    }

    private static Duration of(long[] spent, Stage stage) {
        return Duration.ofNanos(spent[stage.ordinal()]);
    }
}
