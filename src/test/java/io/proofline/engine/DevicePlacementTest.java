package io.proofline.engine;

import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.device.ProvingDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static io.proofline.engine.EngineFixture.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Placement over several devices: least-loaded first, the CPU fallback only when no GPU can take the partition at
 * all, device faults in prove start move the partition, and prove finish stays on the device that started it.
 */
class DevicePlacementTest {

    private static final TestDevice GPU0 = new TestDevice("gpu0");
    private static final TestDevice GPU1 = new TestDevice("gpu1");
    private static final TestDevice CPU = new TestDevice("cpu", true);

    private EngineFixture fixture;

    private EngineFixture start(int partitionsInBudget, UnaryOperator<EngineConfig.Builder> settings,
                                ProvingDevice... devices) {
        fixture = new EngineFixture(partitionsInBudget, settings, List.of(devices));
        return fixture;
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    private static Set<String> devicesUsed(EngineFixture f, JobId id) {
        return f.engine.status(id).partitions().stream().map(PartitionStatus::device).collect(Collectors.toSet());
    }

    @Test
    void partitionsGoToTheLeastLoadedDeviceNotTheFirstWithRoom() throws Exception {
        // Two permits per device: a first-fit placement would put both partitions on gpu0.
        EngineFixture f = start(4, b -> b.workersPerDevice(2), GPU0, GPU1);
        Gate gate = Gate.interruptible();
        f.prover.onProveStart = (work, device) -> gate.pass();
        JobId id = f.engine.submit(job(2));
        gate.awaitArrivals(2);
        assertEquals(1, f.device("gpu0").busyWorkers(), () -> f.engine.snapshot().devices().toString());
        assertEquals(1, f.device("gpu1").busyWorkers(), () -> f.engine.snapshot().devices().toString());
        assertEquals(2, f.device("gpu0").workers());
        gate.open();
        assertEquals(JobState.DONE, f.await(id).state());
        assertEquals(Set.of("gpu0", "gpu1"), devicesUsed(f, id));
        f.assertAllReleased();
    }

    @Test
    void theCpuFallbackWaitsWhileTheGpuIsMerelyBusy() throws Exception {
        EngineFixture f = start(4, b -> b, GPU0, CPU);
        Gate gate = Gate.interruptible();
        AtomicBoolean holding = new AtomicBoolean();
        Map<String, String> startedOn = new ConcurrentHashMap<>();
        f.prover.onProveStart = (work, device) -> {
            startedOn.put(FakeProver.name(work), device.id());
            // Whichever partition reaches a device first holds it (proving workers may take them out of order).
            if (holding.compareAndSet(false, true)) {
                gate.pass();
            }
        };
        JobId id = f.engine.submit(job(3));
        gate.awaitArrivals(1);
        // The other two synthesized and waiting while gpu0 is busy: the idle CPU must not take them.
        long end = System.nanoTime() + EngineFixture.WAIT.toNanos();
        while (f.engine.snapshot().queues().awaitingDevice() != 2) {
            assertTrue(System.nanoTime() < end, () -> "two partitions waiting for a device: "
                    + f.engine.snapshot().toLogLine() + "; started " + startedOn);
            Thread.sleep(1);
        }
        assertEquals(0, f.device("cpu").busyWorkers());
        gate.open();
        assertEquals(JobState.DONE, f.await(id).state());
        assertEquals(Set.of("gpu0"), Set.copyOf(startedOn.values()), startedOn::toString);
        assertEquals("CLOSED", f.device("gpu0").breakerState());
        f.assertAllReleased();
    }

    @Test
    void aGpuFaultMovesThePartitionToAnotherGpuBeforeTheCpu() throws Exception {
        EngineFixture f = start(4, b -> b, GPU0, GPU1, CPU);
        f.prover.onProveStart = (work, device) -> {
            if (device.id().equals("gpu0")) {
                throw new DeviceFaultException("CUDA_ERROR_LAUNCH_FAILED");
            }
        };
        JobId id = f.engine.submit(job(4));
        JobResult result = f.await(id);
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        assertEquals(Set.of("gpu1"), devicesUsed(f, id));
        assertEquals("OPEN", f.device("gpu0").breakerState());
        assertEquals("CLOSED", f.device("gpu1").breakerState());
        f.assertAllReleased();
    }

    @Test
    void withEveryGpuBreakerOpenTheCpuFallbackTakesTheWork() throws Exception {
        EngineFixture f = start(4, b -> b, GPU0, GPU1, CPU);
        f.prover.onProveStart = (work, device) -> {
            if (!device.fallback()) {
                throw new DeviceFaultException("device lost");
            }
        };
        JobId id = f.engine.submit(job(4));
        JobResult result = f.await(id);
        assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
        assertEquals(Set.of("cpu"), devicesUsed(f, id));
        assertEquals("OPEN", f.device("gpu0").breakerState());
        assertEquals("OPEN", f.device("gpu1").breakerState());
        // With both GPU breakers open, new work goes straight to the CPU.
        JobId next = f.engine.submit(job(2));
        assertEquals(JobState.DONE, f.await(next).state());
        assertEquals(Set.of("cpu"), devicesUsed(f, next));
        f.assertAllReleased();
    }

    @Test
    void withoutAFallbackEveryGpuFaultingFailsTheJob() throws Exception {
        EngineFixture f = start(4, b -> b, GPU0, GPU1);
        f.prover.onProveStart = (work, device) -> {
            throw new DeviceFaultException("device lost");
        };
        JobResult result = f.await(f.engine.submit(job(2)));
        assertEquals(JobState.FAILED, result.state());
        assertInstanceOf(NoDeviceAvailableException.class, result.failure().orElseThrow().cause());
        f.assertAllReleased();
    }

    @Test
    void aFaultInProveFinishStaysOnItsDeviceFailsThePartitionAndOpensTheBreaker() throws Exception {
        EngineFixture f = start(4, b -> b, GPU0, CPU);
        f.prover.onProveFinish = (work, device) -> {
            throw new DeviceFaultException("CUDA_ERROR_ILLEGAL_ADDRESS in finish");
        };
        JobResult result = f.await(f.engine.submit(job(1)));
        assertEquals(JobState.FAILED, result.state());
        assertInstanceOf(DeviceFaultException.class, result.failure().orElseThrow().cause());
        assertEquals("OPEN", f.device("gpu0").breakerState());
        assertEquals(0, f.device("cpu").busyWorkers());
        f.assertAllReleased();
    }

    @Test
    void everyProofIsFinishedOnTheDeviceThatStartedItThroughFaultsAndRetries() throws Exception {
        // Faults on gpu0 for odd partitions only (its breaker needs many calls to judge), so partitions move
        // between devices; FakeProver records any finish on a device other than the one that started it.
        EngineFixture f = start(16, b -> b.workersPerDevice(2).breakerMinimumCalls(10), GPU0, GPU1, CPU);
        f.prover.onProveStart = (work, device) -> {
            if (device.id().equals("gpu0") && work.partition() % 2 == 1) {
                throw new DeviceFaultException("transient");
            }
        };
        List<JobId> ids = List.of(f.engine.submit(job(6)), f.engine.submit(job(6)));
        for (JobId id : ids) {
            JobResult result = f.await(id);
            assertEquals(JobState.DONE, result.state(), () -> String.valueOf(result.failure()));
            assertTrue(f.engine.status(id).partitions().stream()
                    .filter(p -> p.index() % 2 == 1).noneMatch(p -> p.device().equals("gpu0")));
        }
        f.assertAllReleased();
    }
}
