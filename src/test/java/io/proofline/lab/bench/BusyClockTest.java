package io.proofline.lab.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The union of activity intervals, on a clock the test moves (no wall-clock timing). */
class BusyClockTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final BusyClock gpu = new BusyClock("cuda0", now::get);

    @Test
    void overlappingActivitiesCountOnce() {
        gpu.reset();
        gpu.enter();
        gpu.enter();  // a second logical device starts while the first runs
        now.addAndGet(30);
        gpu.leave();
        now.addAndGet(30);
        gpu.leave();

        assertThat(gpu.activities()).isEqualTo(2);
        assertThat(gpu.busyNanos()).isEqualTo(60);  // the union, not the sum of the two intervals (90)
    }

    @Test
    void idleGapsAreNotBusyAndARunningActivityCountsUpToNow() {
        gpu.reset();
        gpu.enter();
        now.addAndGet(10);
        gpu.leave();
        now.addAndGet(50);
        assertThat(gpu.busyNanos()).isEqualTo(10);
        gpu.enter();
        now.addAndGet(7);
        assertThat(gpu.busyNanos()).isEqualTo(17);
        gpu.leave();
        now.addAndGet(100);
        assertThat(gpu.busyNanos()).isEqualTo(17);
    }

    @Test
    void resetStartsOverAndAnActivityRunningAcrossItCountsFromThen() {
        gpu.enter();
        now.addAndGet(40);
        gpu.reset();
        now.addAndGet(5);
        assertThat(gpu.busyNanos()).isEqualTo(5);
        gpu.leave();
        assertThat(gpu.activities()).isEqualTo(1);
        gpu.reset();
        assertThat(gpu.busyNanos()).isZero();
        assertThat(gpu.activities()).isZero();
    }
}
