package io.proofline.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;
import io.proofline.service.jobs.JobFinishedEvent;
import io.proofline.service.config.DeviceBackends;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Prometheus metrics, all named {@code proofline_*}: gauges of the buffer table by class and stage, the budget,
 * the memory limit, its fixed part and the unaccounted bytes, RSS, off-heap bytes, queue depths and busy workers (read from one snapshot, refreshed at most once a second so a
 * scrape does not read {@code /proc} per gauge); a timer per stage over finished partitions; proofs by outcome.
 */
@Component
class PipelineMetrics implements MeterBinder {

    private static final long SNAPSHOT_MAX_AGE_NANOS = Duration.ofSeconds(1).toNanos();

    private final ProvingEngine engine;
    private final DeviceBackends backends;
    private MeterRegistry registry;
    private PipelineSnapshot cached;
    private long cachedAt;

    PipelineMetrics(ProvingEngine engine, DeviceBackends backends) {
        this.engine = engine;
        this.backends = backends;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        for (BufferClass c : BufferClass.values()) {
            for (Stage s : Stage.values()) {
                String cls = lower(c);
                String stage = lower(s);
                gauge(registry, "proofline.buffer.bytes", "live bytes of a buffer class in a stage",
                        p -> p.cell(c, s).bytes(), "class", cls, "stage", stage);
                gauge(registry, "proofline.buffer.count", "live buffers of a class in a stage",
                        p -> p.cell(c, s).count(), "class", cls, "stage", stage);
            }
        }
        gauge(registry, "proofline.budget.total.bytes", "the memory budget", p -> p.budget().totalBytes());
        gauge(registry, "proofline.budget.reserved.bytes", "bytes reserved from the budget",
                p -> p.budget().reservedBytes());
        gauge(registry, "proofline.budget.peak.reserved.bytes", "the most bytes ever reserved at once",
                p -> p.budget().peakReservedBytes());
        gauge(registry, "proofline.process.rss.bytes", "resident set size (VmRSS)", p -> p.process().rssBytes());
        gauge(registry, "proofline.process.rss.peak.bytes", "RSS high-water mark (VmHWM)",
                p -> p.process().rssPeakBytes());
        gauge(registry, "proofline.offheap.bytes", "off-heap bytes the service allocated",
                p -> p.process().offHeapBytes());
        gauge(registry, "proofline.heap.after.gc.bytes",
                "JVM heap in use right after the last garbage collection (what the heap holds)",
                p -> p.process().heapAfterGcBytes());
        gauge(registry, "proofline.heap.max.bytes", "the JVM's max heap", p -> p.process().heapMaxBytes());
        Gauge.builder("proofline.finished.jobs.bytes", engine, ProvingEngine::retainedFinishedBytes)
                .description("heap bytes the engine keeps of finished jobs (at most the fixed part's finished jobs)")
                .strongReference(true).register(registry);
        gauge(registry, "proofline.memory.limit.bytes", "the memory limit: the most RSS the process may reach",
                p -> p.memory().limitBytes());
        gauge(registry, "proofline.memory.fixed.bytes", "the declared fixed part of the memory limit",
                p -> p.memory().fixedBytes());
        for (String figure : engine.snapshot().memory().fixed().keySet()) {
            gauge(registry, "proofline.memory.fixed.figure.bytes", "one figure of the fixed part",
                    p -> p.memory().fixed().getOrDefault(figure, 0L), "figure", figure.replace(' ', '_'));
        }
        gauge(registry, "proofline.memory.unaccounted.bytes",
                "RSS less tracked host buffers, heap committed and the non-heap fixed part",
                p -> p.memory().unaccountedBytes());
        gauge(registry, "proofline.queue.depth", "partitions per stage", p -> p.queues().queued(), "stage", "queued");
        gauge(registry, "proofline.queue.depth", "partitions per stage", p -> p.queues().synthesizing(),
                "stage", "synthesizing");
        gauge(registry, "proofline.queue.depth", "partitions per stage", p -> p.queues().awaitingDevice(),
                "stage", "awaiting_device");
        gauge(registry, "proofline.queue.depth", "partitions per stage", p -> p.queues().proving(), "stage", "proving");
        gauge(registry, "proofline.queue.depth", "partitions per stage", p -> p.queues().finalizing(),
                "stage", "finalizing");
        gauge(registry, "proofline.queue.capacity", "partitions the engine's queue admits",
                p -> p.queues().queueCapacity());
        for (ProvingDevice device : backends.devices()) {
            gauge(registry, "proofline.device.busy.workers", "workers running prove start on the device",
                    p -> device(p, device.id()).busyWorkers(), "device", device.id());
            gauge(registry, "proofline.device.workers", "the device's bulkhead size",
                    p -> device(p, device.id()).workers(), "device", device.id());
            gauge(registry, "proofline.device.memory.used.bytes", "bytes in use on the device (-1: unknown)",
                    p -> device(p, device.id()).memory().usedBytes(), "device", device.id());
            gauge(registry, "proofline.device.memory.free.bytes", "bytes free on the device (-1: unknown)",
                    p -> device(p, device.id()).memory().freeBytes(), "device", device.id());
            // Every device buffer in one class: keys, a/b/c, the other working buffers.
            for (BufferClass c : new BufferClass[] {BufferClass.KEY_DEVICE, BufferClass.ABC,
                    BufferClass.SCRATCH_DEVICE}) {
                gauge(registry, "proofline.device.buffer.bytes", "bytes of a device buffer class on the device",
                        p -> device(p, device.id()).memory().bytes(c), "device", device.id(), "class", lower(c));
                gauge(registry, "proofline.device.buffer.count", "buffers of a device buffer class on the device",
                        p -> device(p, device.id()).memory().count(c), "device", device.id(), "class", lower(c));
            }
        }
    }

    @EventListener
    void jobFinished(JobFinishedEvent event) {
        MeterRegistry r = registry;
        if (r == null) {
            return;
        }
        String outcome = event.state() == JobState.FAILED && event.reason().contains("InvalidProof") ? "invalid"
                : lower(event.state());
        Counter.builder("proofline.proofs").description("partition proofs by outcome").tag("outcome", outcome)
                .register(r).increment(event.partitions().size());
        for (PartitionStatus p : event.partitions()) {
            StageTimings t = p.timings();
            record(r, "queued", t.queueWait());
            record(r, "synthesizing", t.synthesis());
            record(r, "awaiting_device", t.deviceWait());
            record(r, "proving", t.proving());
            record(r, "finalizing", t.finalizing());
            record(r, "verifying", t.verify());
        }
    }

    private static void record(MeterRegistry r, String stage, Duration d) {
        if (!d.isZero()) {
            Timer.builder("proofline.stage").description("time partitions spent per stage").tag("stage", stage)
                    .register(r).record(d);
        }
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<PipelineSnapshot> f,
                       String... tags) {
        // Held strongly: Micrometer keeps a gauge's object weakly by default, and a binder nothing else holds (one
        // bound by hand, as in a test) would be collected and its gauges read NaN.
        Gauge.builder(name, this, m -> f.applyAsDouble(m.snapshot())).description(description).tags(tags)
                .strongReference(true).register(registry);
    }

    private synchronized PipelineSnapshot snapshot() {
        long now = System.nanoTime();
        if (cached == null || now - cachedAt > SNAPSHOT_MAX_AGE_NANOS) {
            cached = engine.snapshot();
            cachedAt = now;
        }
        return cached;
    }

    private static DeviceFigures device(PipelineSnapshot p, String id) {
        return p.devices().stream().filter(d -> d.id().equals(id)).findFirst()
                .orElse(new DeviceFigures(id, io.proofline.engine.device.DeviceMemory.UNKNOWN, 0, 0, "UNKNOWN"));
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
