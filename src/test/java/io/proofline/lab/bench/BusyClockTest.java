package io.proofline.lab.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BusyClockTest {

    @Test
    void overlappingActivitiesCountOnce() throws InterruptedException {
        BusyClock gpu = new BusyClock("cuda0");
        gpu.reset();
        long start = System.nanoTime();
        gpu.enter();
        gpu.enter();  // a second logical device starts while the first runs
        Thread.sleep(30);
        gpu.leave();
        Thread.sleep(30);
        gpu.leave();
        long wall = System.nanoTime() - start;
        assertThat(gpu.activities()).isEqualTo(2);
        // The union (≈ 60 ms), not the sum of the two intervals (≈ 90 ms).
        assertThat(gpu.busyNanos()).isLessThanOrEqualTo(wall).isGreaterThanOrEqualTo(55_000_000L);
    }

    @Test
    void idleGapsAreNotBusy() throws InterruptedException {
        BusyClock gpu = new BusyClock("cuda0");
        gpu.reset();
        gpu.enter();
        Thread.sleep(10);
        gpu.leave();
        long idleFrom = System.nanoTime();
        Thread.sleep(50);
        long idle = System.nanoTime() - idleFrom;
        long busyBefore = gpu.busyNanos();
        assertThat(gpu.busyNanos()).isEqualTo(busyBefore);  // nothing running: the figure stands still
        gpu.enter();
        Thread.sleep(10);
        long running = gpu.busyNanos();
        assertThat(running).isGreaterThan(busyBefore);  // a running activity counts up to now
        gpu.leave();
        assertThat(busyBefore).isLessThan(idle);
    }

    @Test
    void resetStartsOver() {
        BusyClock gpu = new BusyClock("cuda0");
        gpu.enter();
        gpu.leave();
        gpu.reset();
        assertThat(gpu.busyNanos()).isZero();
        assertThat(gpu.activities()).isZero();
    }
}
