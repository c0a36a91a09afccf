package io.proofline.cli;

import io.proofline.engine.BufferClass;
import io.proofline.engine.BufferTracker;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.MemoryBudget;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PipelinePolicy;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.Stage;
import io.proofline.engine.TrackedBuffer;
import io.proofline.engine.groth16.CpuDevice;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.engine.groth16.SingleCircuit;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.format.ZkeyWriter;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.setup.DevSetup;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bench pipeline}: real proofs of a dev circuit through the whole engine (CPU backend), to show what the
 * memory budget does to peak memory and throughput. {@code --policy baseline} is the pre-fix design of DESIGN §1
 * (synthesis permit released when synthesis ends, unbounded hand-off), kept for this comparison only.
 *
 * <p>The last line is machine-readable: {@code peak_rss_bytes=… peak_reserved_bytes=… budget_bytes=… proofs=…
 * proofs_per_s=…}. Peak RSS is the process's VmHWM, reset (through {@code /proc/self/clear_refs}) after the key
 * and witness are loaded, so it covers the pipeline run alone plus what stays resident (heap, the mapped key).
 */
final class PipelineBench implements BenchSuite {

    @Override
    public String name() {
        return "pipeline";
    }

    @Override
    public String description() {
        return "--curve bn128|bls12381 --constraints N --partitions P --jobs J --synthesis-workers W --budget SIZE"
                + " --policy budget|baseline [--workers-per-device D] [--verify true|false] [--dir DIR]";
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        Map<String, String> opts = Options.parse(args, "--curve", "--constraints", "--partitions", "--jobs",
                "--synthesis-workers", "--budget", "--policy", "--workers-per-device", "--verify", "--dir");
        String curveName = opts.getOrDefault("--curve", "bn128");
        SnarkCurve curve = SnarkCurves.byName(curveName)
                .orElseThrow(() -> new UsageException("unknown curve '" + curveName + "' (bn128 or bls12381)"));
        int constraints = Options.intValue(opts, "--constraints", 1 << 16);
        int partitions = Options.intValue(opts, "--partitions", 10);
        int jobs = Options.intValue(opts, "--jobs", 4);
        int workers = Options.intValue(opts, "--synthesis-workers", 2);
        int workersPerDevice = Options.intValue(opts, "--workers-per-device", 1);
        boolean verify = Boolean.parseBoolean(opts.getOrDefault("--verify", "true"));
        PipelinePolicy policy = switch (opts.getOrDefault("--policy", "budget")) {
            case "budget" -> PipelinePolicy.BUDGETED;
            case "baseline" -> PipelinePolicy.BASELINE;
            default -> throw new UsageException("--policy must be budget or baseline");
        };
        long budget = ByteSizes.parse(Options.require(opts, "--budget"));
        Path dir = Path.of(opts.getOrDefault("--dir", ".bench/dev-" + curve.name() + "-" + constraints));

        ensureDevCircuit(curve, constraints, dir, out);
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"), PointCheck.CURVE)) {
            byte[] witness = Files.readAllBytes(dir.resolve("witness.wtns"));
            CircuitRef circuit = new CircuitRef("dev-" + curve.name() + "-" + constraints, key.nVars(),
                    key.domainSize(), key.nPublic());

            EngineConfig config = EngineConfig.builder().budgetBytes(budget).synthesisWorkers(workers)
                    .workersPerDevice(workersPerDevice).verifyProofs(verify).policy(policy)
                    .queueCapacity(Math.max(EngineConfig.DEFAULT_QUEUE_CAPACITY, jobs * partitions)).build();
            BufferTracker tracker = new BufferTracker();
            AtomicLong peakAbcPartitions = new AtomicLong();
            AtomicLong peakHeapCommitted = new AtomicLong();
            tracker.addListener((event, snapshot) -> {
                peakAbcPartitions.accumulateAndGet(abcPartitions(snapshot), Math::max);
                peakHeapCommitted.accumulateAndGet(snapshot.process().heapCommittedBytes(), Math::max);
            });
            Groth16PartitionProver prover = new Groth16PartitionProver(new SingleCircuit(circuit.id(), key),
                    Map.of(CpuDevice.ID, new CpuProverBackend()));

            resetPeakRss();
            long startRss = tracker.snapshot().process().rssBytes();
            MemoryBudget memoryBudget = new MemoryBudget(budget);
            try (TrackedBuffer keyOnHost = tracker.track(BufferClass.KEY_HOST, Stage.RESIDENT, key.byteSize());
                 ProvingEngine engine = ProvingEngine.builder(config, prover).devices(List.of(new CpuDevice()))
                         .budget(memoryBudget).tracker(tracker).start()) {
                long start = System.nanoTime();
                List<JobId> ids = new ArrayList<>();
                for (int j = 0; j < jobs; j++) {
                    JobRequest.Builder request = JobRequest.builder(circuit).verify(verify);
                    for (int p = 0; p < partitions; p++) {
                        request.partition(PartitionInput.wtns(witness));
                    }
                    ids.add(engine.submit(request.build()));
                }
                int proofs = 0;
                for (JobId id : ids) {
                    JobResult result = engine.await(id, Duration.ofHours(2));
                    if (result.state() != JobState.DONE) {
                        out.println("job " + id + " ended " + result.state() + " " + result.failure().map(Object::toString).orElse(""));
                        return 1;
                    }
                    proofs += result.proofs().size();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                PipelineSnapshot end = engine.snapshot();
                out.printf("%s, %d constraints (domain %d), %d jobs x %d partitions, policy %s, synthesis workers %d,"
                                + " %d prove-start workers, verify %s: %d proofs in %.1f s; peak partitions holding a/b/c: %d%n",
                        curve.name(), constraints, key.domainSize(), jobs, partitions, policy, workers,
                        workersPerDevice, verify, proofs, seconds, peakAbcPartitions.get());
                out.printf("fixed part: RSS %d MiB before the first job (JVM, mapped key %d MiB); peak JVM heap committed"
                                + " %d MiB%n", startRss >> 20, key.byteSize() >> 20, peakHeapCommitted.get() >> 20);
                out.printf("peak_rss_bytes=%d peak_reserved_bytes=%d budget_bytes=%d proofs=%d proofs_per_s=%.3f%n",
                        end.process().rssPeakBytes(), memoryBudget.peakReserved(), budget, proofs, proofs / seconds);
            }
        }
        return 0;
    }

    /** Partitions holding a/b/c: synthesis allocates the three vectors together, so ABC buffers / 3. */
    private static long abcPartitions(PipelineSnapshot snapshot) {
        return snapshot.count(BufferClass.ABC) / 3;
    }

    private static void ensureDevCircuit(SnarkCurve curve, int constraints, Path dir, PrintStream out) throws IOException {
        if (Files.exists(dir.resolve("circuit.zkey")) && Files.exists(dir.resolve("witness.wtns"))) {
            return;
        }
        Files.createDirectories(dir);
        out.println("generating an INSECURE dev circuit of " + constraints + " constraints into " + dir);
        try (DevSetup.Result r = DevSetup.generate(curve, constraints, 2, 1)) {
            ZkeyWriter.write(r.key(), dir.resolve("circuit.zkey"));
            WtnsWriter.write(r.witness(), dir.resolve("witness.wtns"));
        }
    }

    /** Resets VmHWM to the current RSS (Linux ≥ 4.0), so the peak covers the run, not the set-up. */
    private static void resetPeakRss() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException | UnsupportedOperationException e) {
            // Not Linux or not permitted: the peak then includes loading the key and witness.
        }
    }
}
