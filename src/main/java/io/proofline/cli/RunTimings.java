package io.proofline.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The split of one command's run for {@code --timings}: from the process's start (as the OS recorded it, 10 ms
 * resolution) to the CLI's first class, which is the JVM's start and the launcher (class loading, the jar's class
 * path); then from there to the command; then each phase the command marks. Printed on one line to stderr, so that
 * a user sees where a one-shot proof's time went.
 */
final class RunTimings {

    /** When the CLI's classes were first used: {@link Cli} loads this class in its static initializer. */
    private static final Instant CLI_LOADED = Instant.now();
    private static final long CLI_LOADED_NANOS = System.nanoTime();

    private final long created = System.nanoTime();
    private final List<String> phases = new ArrayList<>();
    private long last = created;

    /** Loads this class, so that {@link #CLI_LOADED} is the CLI's start. */
    static void touch() {
    }

    /** Ends the phase {@code name}, from the previous mark (or this object's creation) to now. */
    void mark(String name) {
        long now = System.nanoTime();
        phases.add(name + " " + millis(now - last));
        last = now;
    }

    /** Prints {@code timings: process start to CLI …, CLI to command …, <phase> …, …, total …} to {@code err}. */
    void print(PrintStream err) {
        List<String> all = new ArrayList<>();
        ProcessHandle.current().info().startInstant().ifPresent(start -> all.add("process start to CLI "
                + millis(Duration.between(start, CLI_LOADED).toNanos())));
        all.add("CLI to command " + millis(created - CLI_LOADED_NANOS));
        all.addAll(phases);
        all.add("command " + millis(last - created));
        err.println("timings: " + String.join(", ", all));
    }

    private static String millis(long nanos) {
        return (nanos / 1_000_000) + " ms";
    }
}
