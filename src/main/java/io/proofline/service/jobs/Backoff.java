package io.proofline.service.jobs;

import java.time.Duration;

/**
 * A wait that doubles with each try from {@code first} and never exceeds {@code max}: how long a job handed back after
 * a transient failure waits before its next run, and how long a write waits for the database to come back.
 */
record Backoff(Duration first, Duration max) {

    Backoff {
        if (first.isNegative() || first.isZero() || max.compareTo(first) < 0) {
            throw new IllegalArgumentException("a backoff needs 0 < first <= max: " + first + ", " + max);
        }
    }

    /** The wait before try {@code n + 1} after {@code n} tries failed ({@code n} from 0). */
    Duration after(int n) {
        Duration wait = first.multipliedBy(1L << Math.min(Math.max(n, 0), 30));
        return wait.compareTo(max) > 0 || wait.isNegative() ? max : wait;
    }
}
