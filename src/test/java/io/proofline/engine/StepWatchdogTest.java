package io.proofline.engine;

import io.proofline.engine.device.ProvingDevice;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.proofline.engine.EngineFixture.eventually;
import static io.proofline.engine.EngineFixture.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Liveness by progress (issue #33): a prove start or prove finish that overruns the step timeout on a device while
 * another device could take the partition fails over — the device is taken for hung (breaker open) and the partition
 * is proved elsewhere — while the stuck call keeps its buffers and bytes, counted, until it returns. With no other
 * device the step goes on.
 */
class StepWatchdogTest {

    private static final Duration STEP_TIMEOUT = Duration.ofMillis(300);
    private static final TestDevice GPU0 = new TestDevice("gpu0");
    private static final TestDevice GPU1 = new TestDevice("gpu1");
    private static final TestDevice CPU = new TestDevice("cpu", true);

    private EngineFixture fixture;

    private EngineFixture start(ProvingDevice... devices) {
        fixture = new EngineFixture(4, b -> b.stepTimeout(STEP_TIMEOUT), List.of(devices));
        return fixture;
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aHungProveStartFailsOverToTheCpuAndTheStuckCallKeepsItsBytesUntilItReturns() throws Exception {
        EngineFixture f = start(GPU0, CPU);
        // a device call that ignores interrupts, as a native one does, and hangs until the test lets it go
        Gate hung = Gate.uninterruptible();
        f.prover.onProveStart = (work, device) -> {
            if (device.id().equals("gpu0")) {
                hung.pass();
            }
        };
        JobId id = f.engine.submit(job(1));
        hung.awaitArrivals(1);

        JobResult result = f.await(id);
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        assertEquals("cpu", f.engine.status(id).partitions().getFirst().device());
        assertEquals("OPEN", f.device("gpu0").breakerState());
        assertTrue(f.engine.stepOverruns() >= 1);
        // the stuck call still holds the partition's first attempt: its witness, a/b/c and pending proof
        assertEquals(EngineFixture.PARTITION_BYTES, f.budget.reserved(), "the stuck attempt's bytes stay counted");
        assertEquals(1, f.device("gpu0").busyWorkers());
        hung.open();
        f.assertAllReleased();
    }

    @Test
    void aHungProveFinishStartsThePartitionOverOnAnotherDevice() throws Exception {
        EngineFixture f = start(GPU0, GPU1);
        Gate hung = Gate.uninterruptible();
        AtomicBoolean first = new AtomicBoolean(true);
        f.prover.onProveFinish = (work, device) -> {
            if (first.getAndSet(false)) {
                hung.pass();
            }
        };
        JobId id = f.engine.submit(job(1));
        hung.awaitArrivals(1);
        String stuckOn = f.engine.status(id).partitions().getFirst().device();

        JobResult result = f.await(id);
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        String provedOn = f.engine.status(id).partitions().getFirst().device();
        assertTrue(!provedOn.equals(stuckOn), "proved again on the other device, not " + stuckOn);
        assertEquals("OPEN", f.device(stuckOn).breakerState());
        hung.open();
        f.assertAllReleased();
    }

    @Test
    void aSlowStepWithNoOtherDeviceGoesOn() throws Exception {
        EngineFixture f = start(GPU0);
        f.prover.onProveStart = (work, device) -> Thread.sleep(STEP_TIMEOUT.multipliedBy(3));
        JobId id = f.engine.submit(job(1));
        JobResult result = f.await(id);
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        assertTrue(f.engine.stepOverruns() >= 1, "the overrun was seen");
        assertEquals("CLOSED", f.device("gpu0").breakerState());
        f.assertAllReleased();
    }

    @Test
    void aCancelledPartitionWhoseStepHangsEndsOnceTheCallReturns() throws Exception {
        EngineFixture f = start(GPU0, CPU);
        Gate hung = Gate.uninterruptible();
        AtomicInteger starts = new AtomicInteger();
        f.prover.onProveStart = (work, device) -> {
            starts.incrementAndGet();
            hung.pass();
        };
        JobId id = f.engine.submit(job(1));
        hung.awaitArrivals(1);
        assertTrue(f.engine.cancel(id));
        Thread.sleep(STEP_TIMEOUT.multipliedBy(2).toMillis());
        assertEquals(1, starts.get(), "no second prove start of a cancelled partition");
        hung.open();
        assertEquals(JobState.CANCELLED, f.await(id).state());
        eventually("the device is free", () -> f.device("gpu0").busyWorkers() == 0);
        f.assertAllReleased();
    }
}
