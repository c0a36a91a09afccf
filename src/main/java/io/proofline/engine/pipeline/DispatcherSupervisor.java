package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.DispatcherHealth;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * Runs the {@link Dispatcher} on its own thread and, when an unexpected exception ends that thread (a bug, or a
 * key cache that throws while evicting), starts a new one after a delay that doubles with each consecutive death
 * (so a dispatcher that dies at once every time does not spin). The work it was looking at is still queued, so
 * nothing is lost; {@link #health()} says whether it runs.
 */
final class DispatcherSupervisor {

    private static final System.Logger LOG = System.getLogger(DispatcherSupervisor.class.getName());
    static final Duration FIRST_RESTART_DELAY = Duration.ofMillis(50);
    static final Duration MAX_RESTART_DELAY = Duration.ofSeconds(5);
    /** A dispatcher that ran this long before dying starts over at the first delay. */
    private static final Duration STABLE_RUN = Duration.ofMinutes(1);

    private final Dispatcher<?, ?> dispatcher;
    private final ThreadFactory threads;
    private final BufferTracker tracker;
    private Thread thread;
    private volatile boolean alive;
    private volatile int restarts;
    private volatile String lastFailure;
    private volatile Instant lastFailureAt;
    private Duration nextDelay = FIRST_RESTART_DELAY;

    DispatcherSupervisor(Dispatcher<?, ?> dispatcher, ThreadFactory threads, BufferTracker tracker) {
        this.dispatcher = dispatcher;
        this.threads = threads;
        this.tracker = tracker;
    }

    synchronized void start() {
        alive = true;
        thread = threads.newThread(this::runDispatcher);
        thread.start();
    }

    DispatcherHealth health() {
        return new DispatcherHealth(alive, restarts, Optional.ofNullable(lastFailure),
                Optional.ofNullable(lastFailureAt));
    }

    /** Stops the dispatcher and waits until no dispatcher thread runs (the dispatcher must be stopped first). */
    void stopAndJoin() throws InterruptedException {
        while (true) {
            Thread current;
            synchronized (this) {
                current = thread;
            }
            current.interrupt();
            current.join();
            synchronized (this) {
                if (thread == current) {
                    alive = false;
                    return;
                }
            }
        }
    }

    private void runDispatcher() {
        long started = System.nanoTime();
        try {
            dispatcher.run();
        } catch (RuntimeException | Error e) {
            alive = false;
            lastFailure = e.toString();
            lastFailureAt = Instant.now();
            Duration delay = delay(started);
            LOG.log(System.Logger.Level.ERROR, "the dispatcher thread died; it restarts in " + delay, e);
            tracker.event("dispatcher died: " + e);
            restartAfter(delay);
        }
    }

    private synchronized Duration delay(long startedNanos) {
        if (Duration.ofNanos(System.nanoTime() - startedNanos).compareTo(STABLE_RUN) > 0) {
            nextDelay = FIRST_RESTART_DELAY;
        }
        return nextDelay;
    }

    private void restartAfter(Duration delay) {
        try {
            Thread.sleep(delay);
        } catch (InterruptedException stopping) {
            return;
        }
        synchronized (this) {
            if (dispatcher.isStopped()) {
                return;
            }
            nextDelay = nextDelay.multipliedBy(2).compareTo(MAX_RESTART_DELAY) > 0 ? MAX_RESTART_DELAY
                    : nextDelay.multipliedBy(2);
            restarts++;
            tracker.event("dispatcher restarted");
            start();
        }
    }
}
