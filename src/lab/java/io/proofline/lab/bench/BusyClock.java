package io.proofline.lab.bench;

/**
 * The time during which at least one of the activities it counts is running: the union of their intervals, so
 * overlapping activities count once. {@code bench pipeline} keeps one per logical device and one per physical GPU
 * (several logical devices on one GPU overlap; their per-device figures would add up past 1).
 */
final class BusyClock {

    private final String name;
    private int running;
    private long busySince;
    private long busyNanos;
    private long activities;

    BusyClock(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    /** Starts a new measurement (activities still running count from now). */
    synchronized void reset() {
        busyNanos = 0;
        activities = 0;
        busySince = System.nanoTime();
    }

    /** Busy nanoseconds since {@link #reset()}, including an activity running now. */
    synchronized long busyNanos() {
        return busyNanos + (running > 0 ? System.nanoTime() - busySince : 0);
    }

    /** Activities ended since {@link #reset()}. */
    synchronized long activities() {
        return activities;
    }

    synchronized void enter() {
        if (running++ == 0) {
            busySince = System.nanoTime();
        }
    }

    synchronized void leave() {
        activities++;
        if (--running == 0) {
            busyNanos += System.nanoTime() - busySince;
        }
    }
}
