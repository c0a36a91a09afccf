package io.proofline.web.console;

import io.proofline.engine.memory.BufferCell;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BudgetFigures;
import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.device.DeviceMemory;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.memory.MemoryFigures;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.Priority;
import io.proofline.engine.memory.ProcessMemory;
import io.proofline.engine.QueueDepths;
import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A console backend with DESIGN §1's pile-up in its table: 28 partitions' a/b/c waiting for the GPU. */
final class FakeConsoleBackend implements ConsoleBackend {

    static final long GIB = 1L << 30;
    static final String RUNNING_JOB = "job-running-0001";
    static final String DONE_JOB = "job-done-0002";
    static final String CIRCUIT = "c0ffee00aa11bb22cc33dd44ee55ff66";
    static final String REGISTERING_CIRCUIT = "facade00aa11bb22cc33dd44ee55ff66";

    final List<String> actions = new ArrayList<>();
    boolean accepting = true;

    @Override
    public PipelineSnapshot snapshot() {
        List<BufferCell> cells = List.of(
                new BufferCell(BufferClass.ABC, Stage.AWAITING_DEVICE, 28 * 3, 28 * 12 * GIB),
                new BufferCell(BufferClass.ABC, Stage.PROVING, 3, 12 * GIB),
                new BufferCell(BufferClass.WITNESS, Stage.AWAITING_DEVICE, 28, 28 * 4 * GIB),
                new BufferCell(BufferClass.PENDING, Stage.FINALIZING, 2, 3 << 20),
                new BufferCell(BufferClass.KEY_HOST, Stage.RESIDENT, 1, 47 * GIB),
                // what the engine's tracker adds from the device's figures below
                new BufferCell(BufferClass.KEY_DEVICE, Stage.RESIDENT, 2, 19 * GIB / 2),
                new BufferCell(BufferClass.SCRATCH_DEVICE, Stage.RESIDENT, 14, 13 * GIB / 4),
                new BufferCell(BufferClass.INPUT, Stage.QUEUED, 5, 5 * 640L << 20));
        return new PipelineSnapshot(Instant.parse("2026-12-02T12:00:00Z"), cells,
                new ProcessMemory(668 * GIB, 700 * GIB, 900L << 20, 2 * GIB, 560 * GIB, 120, 700L << 20, GIB),
                new BudgetFigures(740 * GIB, 610 * GIB, 650 * GIB),
                new MemoryFigures(768 * GIB, "CGROUP", java.util.Map.of("max heap", GIB, "metaspace", 256L << 20),
                        GIB + (256L << 20), 740 * GIB, 560 * GIB, 3L << 30),
                List.of(new DeviceFigures("gpu0", new DeviceMemory(60 * GIB, 20 * GIB, 2, 19 * GIB / 2, 14, 13 * GIB / 4), 1, 2, "CLOSED"),
                        new DeviceFigures("gpu1", new DeviceMemory(50 * GIB, 30 * GIB), 2, 2, "OPEN"),
                        new DeviceFigures("cpu", DeviceMemory.UNKNOWN, 0, 2, "CLOSED", true)),
                new QueueDepths(5, 1024, 0, 28, -1, 1, 2));
    }

    @Override
    public boolean acceptingWork() {
        return accepting;
    }

    @Override
    public List<JobRow> recentJobs(int limit) {
        return List.of(row(RUNNING_JOB, JobState.RUNNING), row(DONE_JOB, JobState.DONE));
    }

    private static JobRow row(String id, JobState state) {
        return new JobRow(id, CIRCUIT, "porep-demo", state, Priority.HIGH, 3, Instant.now().minusSeconds(42));
    }

    @Override
    public Optional<JobDetail> job(String id) {
        if (!id.equals(RUNNING_JOB) && !id.equals(DONE_JOB)) {
            return Optional.empty();
        }
        StageTimings t = new StageTimings(Duration.ofMillis(120), Duration.ofMillis(2400), Duration.ofMillis(9000),
                Duration.ofMillis(1800), Duration.ofMillis(700), Duration.ofMillis(90), Duration.ofMillis(14200));
        List<PartitionStatus> partitions = List.of(new PartitionStatus(0, Stage.DONE, "gpu0", t),
                new PartitionStatus(1, Stage.PROVING, "gpu0", new StageTimings(Duration.ofMillis(130),
                        Duration.ofMillis(2500), Duration.ofMillis(4000), Duration.ofMillis(300), Duration.ZERO,
                        Duration.ZERO, Duration.ofMillis(6900))),
                new PartitionStatus(2, Stage.QUEUED, "", StageTimings.ZERO.withTotal(Duration.ofMillis(500))));
        StageTimings sum = t.plusStages(partitions.get(1).timings()).withTotal(Duration.ofSeconds(15));
        return Optional.of(new JobDetail(row(id, id.equals(DONE_JOB) ? JobState.DONE : JobState.RUNNING), partitions,
                sum, Optional.empty()));
    }

    @Override
    public List<CircuitRow> circuits() {
        return List.of(new CircuitRow(CIRCUIT, "porep-demo", "bls12381", 130_000_000L, 130_000_001L, 1, 1L << 27,
                47 * GIB, List.of(new CircuitRow.CachedKey("host", 47 * GIB, 1, Duration.ZERO),
                new CircuitRow.CachedKey("gpu0", 30 * GIB, 1, Duration.ZERO))),
                new CircuitRow(REGISTERING_CIRCUIT, "porep-next", "bls12381", 1L << 24, (1L << 24) + 1, 1, 1L << 24,
                        9 * GIB, List.of(), "REGISTERING", "B2 1,048,576 / 16,777,217 · 61% of 83,886,083 points"));
    }

    @Override
    public List<TenantRow> tenants() {
        return List.of(new TenantRow("key-0a1b2c3d4e5f", 1, "HIGH LOW NORMAL", 500, 512, 430, 6, 50, 1024, 3 * GIB,
                        0, 2, 0, 0, 4),
                new TenantRow("key-9f8e7d6c5b4a", 4, "CRITICAL HIGH LOW NORMAL", 1, 819, 0, 1, 1, 16, 0, 8 * GIB,
                        1, 3, 1, 1));
    }

    @Override
    public List<ConfigEntry> configuration() {
        return List.of(new ConfigEntry("memory", "proofline.memory.budget", "740 GiB"),
                new ConfigEntry("pipeline", "proofline.pipeline.synthesis-workers", "12"));
    }

    @Override
    public boolean cancel(String jobId) {
        actions.add("cancel " + jobId);
        return jobId.equals(RUNNING_JOB);
    }

    @Override
    public boolean evict(String circuitId) {
        actions.add("evict " + circuitId);
        return true;
    }

    @Override
    public void drain() {
        actions.add("drain");
        accepting = false;
    }

    @Override
    public void resume() {
        actions.add("resume");
        accepting = true;
    }

    @Override
    public int runDemoLoad() {
        actions.add("demo");
        return 6;
    }
}
