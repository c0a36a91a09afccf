package io.proofline.engine;

import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.PartitionFootprint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** An engine around a {@link FakeProver} with its own budget and tracker, and the checks most tests share. */
final class EngineFixture implements AutoCloseable {

    /** m = 32, N = 64: WITNESS 1 KiB, ABC 6 KiB, PENDING 4 KiB, 11 KiB per partition. */
    static final CircuitRef CIRCUIT = new CircuitRef("test-circuit", 32, 64, 1);
    static final PartitionFootprint FOOTPRINT = PartitionFootprint.groth16(CIRCUIT);
    static final long PARTITION_BYTES = FOOTPRINT.total();
    static final Duration WAIT = Duration.ofSeconds(20);

    final FakeProver prover = new FakeProver();
    final BufferTracker tracker = new BufferTracker();
    final MemoryBudget budget;
    final ProvingEngine engine;
    /** Invariant violations seen by the tracker listener, if one was installed. */
    final List<String> violations = new CopyOnWriteArrayList<>();

    EngineFixture(int partitionsInBudget, UnaryOperator<EngineConfig.Builder> settings, String... deviceIds) {
        this(partitionsInBudget, settings, KeyResidency.NONE, null, deviceIds);
    }

    EngineFixture(int partitionsInBudget, UnaryOperator<EngineConfig.Builder> settings, KeyResidency keys,
                  MemoryBudget sharedBudget, String... deviceIds) {
        this(partitionsInBudget, settings, keys, sharedBudget, devices(deviceIds));
    }

    EngineFixture(int partitionsInBudget, UnaryOperator<EngineConfig.Builder> settings, List<ProvingDevice> devices) {
        this(partitionsInBudget, settings, KeyResidency.NONE, null, devices);
    }

    private EngineFixture(int partitionsInBudget, UnaryOperator<EngineConfig.Builder> settings, KeyResidency keys,
                          MemoryBudget sharedBudget, List<ProvingDevice> devices) {
        this.budget = sharedBudget != null ? sharedBudget : new MemoryBudget(partitionsInBudget * PARTITION_BYTES);
        EngineConfig config = settings.apply(EngineConfig.builder()
                .budgetBytes(budget.total())
                .synthesisWorkers(2)
                .finalizerThreads(1)
                .workersPerDevice(1)
                .breakerMinimumCalls(1)
                .deviceRetryAfter(Duration.ofMinutes(5))).build();
        this.engine = ProvingEngine.builder(config, prover).devices(devices).budget(budget).tracker(tracker)
                .keys(keys).start();
    }

    private static List<ProvingDevice> devices(String... ids) {
        List<ProvingDevice> devices = new ArrayList<>();
        for (String id : ids.length == 0 ? new String[] {"cpu"} : ids) {
            devices.add(new TestDevice(id));
        }
        return devices;
    }

    /** The figures of device {@code id} in the snapshot now. */
    DeviceFigures device(String id) {
        return engine.snapshot().devices().stream().filter(d -> d.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no device " + id + " in " + engine.snapshot().devices()));
    }

    static JobRequest job(int partitions) {
        return job(partitions, Priority.NORMAL);
    }

    static JobRequest job(int partitions, Priority priority) {
        JobRequest.Builder b = JobRequest.builder(CIRCUIT).priority(priority);
        for (int i = 0; i < partitions; i++) {
            b.partition(PartitionInput.wtns(new byte[100 + i]));
        }
        return b.build();
    }

    JobResult await(JobId id) throws Exception {
        return engine.await(id, WAIT);
    }

    /** Nothing counted, nothing reserved, nothing queued: what every path must come back to. */
    void assertAllReleased() throws InterruptedException {
        eventually("budget back to zero", () -> budget.reserved() == 0);
        PipelineSnapshot s = engine.snapshot();
        assertEquals(0, s.totalCount(), () -> "live buffers left: " + s.toLogLine());
        assertEquals(0, s.process().offHeapBytes(), () -> "off-heap bytes left: " + s.toLogLine());
        assertEquals(0, s.process().offHeapBuffers());
        QueueDepths q = s.queues();
        assertEquals(0, q.queued() + q.synthesizing() + q.awaitingDevice() + q.proving() + q.finalizing(),
                () -> "partitions left in stages: " + q);
        assertEquals(0, s.budget().reservedBytes());
        assertTrue(s.devices().stream().allMatch(d -> d.busyWorkers() == 0), () -> "busy devices: " + s.devices());
        assertTrue(prover.deviceMismatches.isEmpty(), () -> "finish on another device: " + prover.deviceMismatches);
        assertTrue(violations.isEmpty(), () -> "invariant violations: " + violations);
    }

    static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting for: " + what);
            }
            Thread.sleep(1);
        }
    }

    @Override
    public void close() {
        engine.close();
    }
}
