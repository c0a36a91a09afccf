package io.proofline.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The split of one command's run for {@code --timings}: from the process's start to the CLI's first class, which is
 * the JVM's start and the launcher (class loading, the jar's class path); then from there to the command; then each
 * phase the command marks. Printed on one line to stderr, so that a user sees where a one-shot proof's time went.
 *
 * <p>The first figure comes from Linux's {@code /proc}: the process's start in clock ticks since boot
 * ({@code /proc/self/stat}) against the time since boot ({@code /proc/uptime}), both 10 ms resolution. Not from
 * {@link ProcessHandle.Info#startInstant()}: that adds the start to the boot time, which the kernel gives in whole
 * seconds, so it was off by up to a second. Where {@code /proc} cannot be read, the figure is left out.
 */
final class RunTimings {

    /** When the CLI's classes were first used: {@link Cli} loads this class in its static initializer. */
    private static final long CLI_LOADED_NANOS = System.nanoTime();
    private static final OptionalLong PROCESS_TO_CLI_MILLIS = millisSinceProcessStart();

    /** Clock ticks per second in {@code /proc}: USER_HZ, which the kernel fixes at 100 for user space. */
    private static final long PROC_TICKS_PER_SECOND = 100;

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
        PROCESS_TO_CLI_MILLIS.ifPresent(ms -> all.add("process start to CLI " + ms + " ms"));
        all.add("CLI to command " + millis(created - CLI_LOADED_NANOS));
        all.addAll(phases);
        all.add("command " + millis(last - created));
        err.println("timings: " + String.join(", ", all));
    }

    /** Milliseconds from this process's start to now, as {@code /proc} tells; empty where it cannot be read. */
    static OptionalLong millisSinceProcessStart() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // Fields after the command name (which may hold spaces) in parentheses; the start is field 22.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long startTicks = Long.parseLong(fields[22 - 3]);
            String uptime = Files.readString(Path.of("/proc/uptime"));
            long uptimeMillis = Math.round(Double.parseDouble(uptime.substring(0, uptime.indexOf(' '))) * 1000);
            return OptionalLong.of(uptimeMillis - startTicks * 1000 / PROC_TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private static String millis(long nanos) {
        return (nanos / 1_000_000) + " ms";
    }
}
