package io.proofline.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether the engine's dispatcher takes work. If its thread dies of an unexpected exception it is restarted after a
 * short, growing delay; until then nothing leaves the queue. A live thread that stops turning while work waits (blocked
 * in a call that does not return: a stalled file system, a lock held by a stuck thread) moves nothing either: it is
 * {@linkplain #stalled() stalled}. Waiting for memory is not a stall: the dispatcher turns while it waits.
 *
 * @param alive             whether the dispatcher thread runs now
 * @param restarts          how often it was restarted after dying
 * @param lastFailure       what the last death threw, empty if it never died
 * @param lastFailureAt     when it last died, empty if it never died
 * @param stalledFor        how long work has waited while the dispatcher did not turn; zero while it turns or
 *                          nothing waits
 * @param admissionOverruns how often the head of the queue waited a whole {@code admissionWait} for memory and
 *                          kept its place (congestion)
 */
public record DispatcherHealth(boolean alive, int restarts, Optional<String> lastFailure,
                               Optional<Instant> lastFailureAt, Duration stalledFor, long admissionOverruns) {

    /** A dispatcher that has not turned for this long while work waits is stalled. */
    public static final Duration STALL_LIMIT = Duration.ofSeconds(30);

    /** Whether work waits while the dispatcher has not turned for {@link #STALL_LIMIT}. */
    public boolean stalled() {
        return stalledFor.compareTo(STALL_LIMIT) >= 0;
    }

    /** Alive and not stalled. */
    public boolean healthy() {
        return alive && !stalled();
    }
}
