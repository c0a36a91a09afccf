package io.proofline.service.jobs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Database work that waits for the database: tried again, {@link #BACKOFF} apart, for as long as the database cannot be
 * reached, so that an outage delays what a run has to store (its proofs above all) instead of throwing it away. The
 * wait ends early only when the thread is interrupted (the job scheduler stopping for good).
 */
final class UntilReachable {

    private static final Logger LOG = LoggerFactory.getLogger(UntilReachable.class);
    /** Waits between tries while the database cannot be reached. */
    static final Backoff BACKOFF = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));

    private UntilReachable() {
    }

    /** {@code work}'s answer once the database answered; null when this thread was interrupted first. */
    static <T> T run(String what, Supplier<T> work) {
        for (int failed = 0; ; failed++) {
            try {
                return work.get();
            } catch (DataAccessException | TransactionException e) {
                if (failed == 0) {
                    LOG.warn("cannot {} now: the database cannot be reached ({}); trying again until it can", what,
                            e.getMessage());
                }
                try {
                    Thread.sleep(BACKOFF.after(failed));
                } catch (InterruptedException stopping) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
        }
    }
}
