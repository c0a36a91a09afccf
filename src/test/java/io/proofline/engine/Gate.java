package io.proofline.engine;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** A test barrier: threads {@link #pass()} it only once it is opened; the test can wait for arrivals. */
final class Gate {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private final CountDownLatch open = new CountDownLatch(1);
    private final Semaphore arrivals = new Semaphore(0);
    private final boolean interruptible;

    private Gate(boolean interruptible) {
        this.interruptible = interruptible;
    }

    /** A gate a cancellation (thread interrupt) breaks through with {@link InterruptedException}. */
    static Gate interruptible() {
        return new Gate(true);
    }

    /** A gate that ignores interrupts, like a native GPU call: the engine must notice cancellation afterwards. */
    static Gate uninterruptible() {
        return new Gate(false);
    }

    void pass() throws InterruptedException {
        arrivals.release();
        if (interruptible) {
            if (!open.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("gate never opened");
            }
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                if (!open.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("gate never opened");
                }
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until {@code n} more threads reached the gate. */
    void awaitArrivals(int n) throws InterruptedException {
        if (!arrivals.tryAcquire(n, TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("expected " + n + " arrivals at the gate");
        }
    }

    void open() {
        open.countDown();
    }
}
