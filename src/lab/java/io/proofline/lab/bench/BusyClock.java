package io.proofline.lab.bench;

import java.util.function.LongSupplier;

/**
 * The time during which at least one of the activities it counts is running: the union of their intervals, so
 * overlapping activities count once. {@code bench pipeline} keeps one per logical device and one per physical GPU
 * (several logical devices on one GPU overlap; their per-device figures would add up past 1).
 */
final class BusyClock {

    private final String name;
    private final LongSupplier nanoTime;
    private int running;
    private long busySince;
    private long busyNanos;
    private long activities;

    BusyClock(String name) {
        this(name, System::nanoTime);
    }

    BusyClock(String name, LongSupplier nanoTime) {
        this.name = name;
        this.nanoTime = nanoTime;
    }

    String name() {
        return name;
    }

    /** Starts a new measurement (activities still running count from now). */
    synchronized void reset() {
        busyNanos = 0;
        activities = 0;
        busySince = nanoTime.getAsLong();
    }

    /** Busy nanoseconds since {@link #reset()}, including an activity running now. */
    synchronized long busyNanos() {
        return busyNanos + (running > 0 ? nanoTime.getAsLong() - busySince : 0);
    }

    /** Activities ended since {@link #reset()}. */
    synchronized long activities() {
        return activities;
    }

    synchronized void enter() {
        if (running++ == 0) {
            busySince = nanoTime.getAsLong();
        }
    }

    synchronized void leave() {
        activities++;
        if (--running == 0) {
            busyNanos += nanoTime.getAsLong() - busySince;
        }
    }
}
