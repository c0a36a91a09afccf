package io.proofline.service.jobs;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which runs this instance lets start, so that a crash can be blamed (issue #33): a suspect job (one whose earlier run
 * died beside other jobs) runs only alone — no other job running here, none started while it runs — so that if the
 * instance dies again, the death is the suspect's. Ordinary jobs run side by side, except while a suspect runs here or
 * waits for this instance to empty: then they are turned away (back to the queue, charged nothing) for
 * {@link #HOLD_OFF} after the suspect last asked, so that the instance drains and the suspect gets its turn.
 */
final class Isolation {

    /** How long ordinary jobs are turned away after a suspect found this instance busy. */
    static final Duration HOLD_OFF = Duration.ofSeconds(5);

    /** A run allowed to start; {@link #close()} when it ends. */
    interface Ticket extends AutoCloseable {
        @Override
        void close();
    }

    private int ordinary;
    private String alone;
    private long holdOffUntilNanos = System.nanoTime();

    /**
     * Lets a run of {@code jobId} start, alone if {@code suspect}; empty when it may not start now (the caller hands
     * the job back to be tried again shortly, here or elsewhere).
     */
    synchronized Optional<Ticket> enter(String jobId, boolean suspect) {
        long now = System.nanoTime();
        if (suspect) {
            if (alone == null && ordinary == 0) {
                alone = jobId;
                return Optional.of(once(this::leaveAlone));
            }
            holdOffUntilNanos = now + HOLD_OFF.toNanos();
            return Optional.empty();
        }
        if (alone != null || now - holdOffUntilNanos < 0) {
            return Optional.empty();
        }
        ordinary++;
        return Optional.of(once(this::leaveOrdinary));
    }

    private static Ticket once(Runnable leave) {
        AtomicBoolean closed = new AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                leave.run();
            }
        };
    }

    /** The suspect running alone here, if any. */
    synchronized Optional<String> runningAlone() {
        return Optional.ofNullable(alone);
    }

    private synchronized void leaveAlone() {
        alone = null;
    }

    private synchronized void leaveOrdinary() {
        ordinary--;
    }
}
