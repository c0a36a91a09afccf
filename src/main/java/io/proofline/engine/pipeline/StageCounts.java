package io.proofline.engine.pipeline;

import io.proofline.engine.Stage;

import java.util.concurrent.atomic.AtomicIntegerArray;

/** How many partitions are in each non-terminal stage; lock-free so snapshots never wait on the pipeline. */
final class StageCounts {

    private final AtomicIntegerArray counts = new AtomicIntegerArray(Stage.values().length);

    void enter(Stage stage) {
        if (!stage.isTerminal()) {
            counts.incrementAndGet(stage.ordinal());
        }
    }

    void move(Stage from, Stage to) {
        if (!from.isTerminal()) {
            counts.decrementAndGet(from.ordinal());
        }
        enter(to);
    }

    int get(Stage stage) {
        return counts.get(stage.ordinal());
    }

    /** Partitions that left the queue and have not finished. */
    int inFlight() {
        return get(Stage.SYNTHESIZING) + get(Stage.AWAITING_DEVICE) + get(Stage.PROVING) + get(Stage.FINALIZING)
                + get(Stage.VERIFYING);
    }
}
