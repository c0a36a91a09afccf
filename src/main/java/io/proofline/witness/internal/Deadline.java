package io.proofline.witness.internal;

import io.proofline.witness.WitnessException;
import io.proofline.witness.WitnessException.Reason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs untrusted wasm on a thread of its own and waits for it at most a given time. Past the deadline the thread is
 * interrupted (Chicory's interpreter and compiled code poll the interrupt flag in loops and calls, the host imports
 * between characters) and the caller gets a {@link Reason#LIMIT} failure at once, whether or not the module has
 * stopped yet; the caller's own interruption (a cancelled job) is passed on the same way and reported as
 * {@link Reason#INTERRUPTED}. The caller's thread, often an HTTP or pipeline worker, never runs the module itself.
 */
public final class Deadline {

    private static final Logger LOG = LoggerFactory.getLogger(Deadline.class);
    /** How long an interrupted module may take to notice before it is left to finish on its own. */
    private static final long STOP_WAIT_MS = 2_000;

    private Deadline() {
    }

    /**
     * @param what  the step, for messages ("the witness computation", "loading the module")
     * @param limit how long it may take; {@link Duration#ZERO}: no limit
     * @param name  the limit's name, for messages
     */
    public static <T> T run(String what, Duration limit, String name, Supplier<T> body) {
        if (Thread.currentThread().isInterrupted()) {
            // Cancelled before it began: start no module (a fast one could finish before the wait saw the flag).
            throw new WitnessException(Reason.INTERRUPTED, what + " was interrupted");
        }
        FutureTask<T> task = new FutureTask<>(body::get);
        Thread worker = Thread.ofPlatform().name("witness-calculator").daemon(true).unstarted(task);
        worker.start();
        try {
            return limit.isZero() ? task.get() : task.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            stop(worker);
            throw new WitnessException(Reason.LIMIT, what + " took longer than the " + name + " of " + format(limit));
        } catch (InterruptedException e) {
            stop(worker);
            Thread.currentThread().interrupt();
            throw new WitnessException(Reason.INTERRUPTED, what + " was interrupted");
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException r -> throw r;
                case Error error -> throw error;
                default -> throw new IllegalStateException(e.getCause());
            }
        }
    }

    private static void stop(Thread worker) {
        worker.interrupt();
        try {
            worker.join(STOP_WAIT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (worker.isAlive()) {
            LOG.warn("a witness calculator did not stop within {} ms of its interruption; it is left to finish", STOP_WAIT_MS);
        }
    }

    /** {@code 2m}, {@code 10s}, {@code 250ms}: as the setting is written. */
    public static String format(Duration d) {
        if (d.toMillis() % 60_000 == 0) {
            return d.toMinutes() + "m";
        }
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
