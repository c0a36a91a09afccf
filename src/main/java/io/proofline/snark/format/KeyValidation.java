package io.proofline.snark.format;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;

/**
 * How a proving key's point sections are checked as it is read: how thoroughly ({@link PointCheck}), on which
 * executor with how many tasks at a time (each task takes chunks of a section in turn), and whom to tell the
 * progress. The executor must not be the one whose thread calls the reader with all its threads busy (the reader
 * waits for its tasks).
 */
public record KeyValidation(PointCheck check, ExecutorService executor, int threads, ValidationProgress progress) {

    public KeyValidation {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, not " + threads);
        }
    }

    /** {@code check} on the common fork-join pool, all of its threads, no progress listener. */
    public static KeyValidation of(PointCheck check) {
        return new KeyValidation(check, ForkJoinPool.commonPool(), Math.max(1, ForkJoinPool.getCommonPoolParallelism()),
                ValidationProgress.NONE);
    }
}
