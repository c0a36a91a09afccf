package io.proofline.ops;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.FixedMemory;
import io.proofline.engine.memory.MemoryLimit;
import io.proofline.engine.memory.MemoryPlan;
import io.proofline.engine.memory.OffHeapBuffer;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.Stage;
import io.proofline.snark.prover.CpuProverBackend;
import java.util.OptionalLong;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.engine.groth16.Groth16Circuits;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.service.config.DeviceBackends;
import io.proofline.snark.prover.DeviceBackendDouble;
import io.proofline.snark.prover.DeviceUsage;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;

/**
 * The Prometheus gauges show each GPU's resident keys and scratch (and the buffer table's RESIDENT column their sum),
 * read through a real engine from a backend's published device usage; no GPU needed.
 */
class PipelineMetricsTest {

    /** A GPU-like backend whose published figures the test sets. */
    private static final class FakeGpuBackend extends DeviceBackendDouble {
        private final AtomicReference<DeviceUsage> usage;

        FakeGpuBackend(AtomicReference<DeviceUsage> usage) {
            this.usage = usage;
        }

        @Override
        public String name() {
            return "fake-gpu";
        }

        @Override
        public DeviceUsage deviceUsage() {
            return usage.get();
        }
    }

    @Test
    void deviceBufferGaugesPerDeviceAndTheResidentColumn() {
        AtomicReference<DeviceUsage> usage = new AtomicReference<>(DeviceUsage.NOTHING_HELD);
        FakeGpuBackend backend = new FakeGpuBackend(usage);
        BackendDevice gpu0 = new BackendDevice("gpu0", backend);
        DeviceBackends backends = new DeviceBackends(List.of(gpu0), Map.of("gpu0", backend));
        EngineConfig config = EngineConfig.builder().budgetBytes(1 << 20).synthesisWorkers(1).finalizerThreads(1)
                .workersPerDevice(1).build();
        // No job runs here: the circuits are never asked for.
        Groth16PartitionProver prover = new Groth16PartitionProver(mock(Groth16Circuits.class), backends.byDevice());
        try (ProvingEngine engine = ProvingEngine.builder(config, prover).devices(backends.devices())
                .tracker(new BufferTracker()).start()) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new PipelineMetrics(engine, backends).bindTo(registry);
            usage.set(new DeviceUsage(8L << 30, 130L << 30, 2, 3L << 30, 11, 700L << 20));

            assertEquals(3L << 30, gauge(registry, "proofline.device.buffer.bytes", "gpu0", "key_device"));
            assertEquals(2, gauge(registry, "proofline.device.buffer.count", "gpu0", "key_device"));
            assertEquals(700L << 20, gauge(registry, "proofline.device.buffer.bytes", "gpu0", "scratch_device"));
            assertEquals(11, gauge(registry, "proofline.device.buffer.count", "gpu0", "scratch_device"));
            assertEquals(8L << 30, registry.get("proofline.device.memory.used.bytes").tag("device", "gpu0").gauge().value());
            assertEquals(3L << 30, registry.get("proofline.buffer.bytes").tag("class", "key_device")
                    .tag("stage", "resident").gauge().value());
            assertEquals(700L << 20, registry.get("proofline.buffer.bytes").tag("class", "scratch_device")
                    .tag("stage", "resident").gauge().value());
        }
    }

    @Test
    void memoryPlanGaugesShowTheLimitTheFixedPartAndTheUnaccountedBytes() {
        FixedMemory fixed = new FixedMemory(256L << 20, 64L << 20, 32L << 20, 16L << 20, 0, 8L << 20);
        MemoryPlan plan = MemoryPlan.of(new MemoryLimit(4L << 30, MemoryLimit.Source.CONFIGURED), fixed,
                OptionalLong.of(512L << 20));
        DeviceBackends backends = new DeviceBackends(List.of(), Map.of());
        EngineConfig config = EngineConfig.builder().memoryPlan(plan).synthesisWorkers(1).finalizerThreads(1).build();
        Groth16PartitionProver prover = new Groth16PartitionProver(mock(Groth16Circuits.class), Map.of());
        BufferTracker tracker = new BufferTracker();
        try (ProvingEngine engine = ProvingEngine.builder(config, prover).tracker(tracker)
                .devices(List.of(new BackendDevice("cpu", new CpuProverBackend()))).start();
             OffHeapBuffer held = tracker.allocate(BufferClass.ABC, Stage.SYNTHESIZING, 3L << 20)) {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new PipelineMetrics(engine, backends).bindTo(registry);
            // nothing else holds the binder: its gauges must outlive a collection (they read NaN when held weakly)
            System.gc();

            assertEquals(4L << 30, registry.get("proofline.memory.limit.bytes").gauge().value());
            assertEquals(fixed.totalBytes(), registry.get("proofline.memory.fixed.bytes").gauge().value());
            assertEquals(64L << 20, registry.get("proofline.memory.fixed.figure.bytes").tag("figure", "metaspace")
                    .gauge().value());
            PipelineSnapshot s = engine.snapshot();
            assertEquals(3L << 20, s.memory().trackedHostBytes());
            long expected = s.process().rssBytes() - (3L << 20) - s.process().heapCommittedBytes()
                    - fixed.nonHeapBytes();
            // RSS and the heap move between two readings: the gauge is read a moment after the snapshot.
            assertEquals(expected, registry.get("proofline.memory.unaccounted.bytes").gauge().value(), 64L << 20);
        }
    }

    private static double gauge(SimpleMeterRegistry registry, String name, String device, String bufferClass) {
        return registry.get(name).tag("device", device).tag("class", bufferClass).gauge().value();
    }
}
