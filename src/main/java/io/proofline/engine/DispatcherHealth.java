package io.proofline.engine;

import java.time.Instant;
import java.util.Optional;

/**
 * Whether the engine's dispatcher thread is taking work. If it dies of an unexpected exception it is restarted
 * after a short, growing delay; until then nothing leaves the queue, and health reports it.
 *
 * @param alive         whether the dispatcher thread runs now
 * @param restarts      how often it was restarted after dying
 * @param lastFailure   what the last death threw, empty if it never died
 * @param lastFailureAt when it last died, empty if it never died
 */
public record DispatcherHealth(boolean alive, int restarts, Optional<String> lastFailure,
                               Optional<Instant> lastFailureAt) {
}
