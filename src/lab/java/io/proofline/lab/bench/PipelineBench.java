package io.proofline.lab.bench;

import io.proofline.cli.GpuOptions;
import io.proofline.cli.WitnessOption;
import io.proofline.cli.Options;
import io.proofline.cli.UsageException;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.memory.FixedMemory;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.MemoryPlan;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.memory.AdmissionPolicy;
import io.proofline.lab.pipeline.BaselineAdmission;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;
import io.proofline.engine.memory.TrackedBuffer;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.engine.groth16.LoadedCircuits;
import io.proofline.engine.groth16.SingleCircuit;
import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuProverBackend;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.format.ZkeyWriter;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.DeviceShare;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.setup.WitnessDistribution;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code bench pipeline}: real proofs of dev circuits through the whole engine, on the CPU backend or on GPUs, to show
 * what the memory budget does to peak memory and throughput and how throughput scales with devices. {@code --policy
 * baseline} is the pre-fix design of DESIGN §1 (synthesis permit released when synthesis ends, unbounded hand-off),
 * kept for this comparison only.
 *
 * <p>{@code --synthesis-workers} and {@code --policy} take lists and run every combination (one engine each, the
 * devices and loaded keys shared). {@code --devices} lists logical devices as CUDA ordinals ({@code 0,1}: two GPUs;
 * {@code 0,0}: two logical devices on GPU 0); on the CPU backend its length is the number of logical CPU devices.
 * {@code --curve bn128,bls12381} and {@code --constraints 4096,65536} (lists) make one dev circuit per (curve, size),
 * under {@code --dir}/{@code dev-<curve>-<N>} when there are several, and the jobs take them in turn (a mix).
 *
 * <p>{@code --limit SIZE} applies the service's memory rule: the budget is what the limit leaves after this JVM's
 * fixed part (start it with the options {@code heap-opts --limit SIZE} prints, as the service is started), less the
 * resident keys; each run then prints its peak RSS against the limit and the peak unaccounted figure.
 *
 * <p>Each combination ends with a machine-readable line: {@code peak_rss_bytes=… peak_reserved_bytes=… budget_bytes=…
 * proofs=… proofs_per_s=… policy=… synthesis_workers=… s_per_job=… mean_job_latency_s=… busy_<device>=…}. Peak RSS is
 * the process's VmHWM, reset (through {@code /proc/self/clear_refs}) before each combination, so it covers that run
 * plus what stays resident (heap, the mapped keys). A device's busy fraction is the time during which at least one
 * prove start ran on it, over the wall time.
 */
final class PipelineBench implements BenchSuite {

    @Override
    public String name() {
        return "pipeline";
    }

    @Override
    public String description() {
        return "--curve bn128|bls12381|bn128,bls12381 --constraints N[,N...] --partitions P --jobs J"
                + " --synthesis-workers W[,W...] (--limit SIZE [--budget SIZE] | --budget SIZE) --policy budget|baseline[,...] [--backend cpu|gpu]"
                + " [--devices 0,1] [--cpu-fallback true|false] [--workers-per-device D] [--finalizer-threads F]"
                + " [--verify true|false] [--dir DIR] " + WitnessOption.USAGE + " " + GpuOptions.USAGE;
    }

    /** One curve's dev circuit, loaded. */
    private record Circuit(CircuitRef ref, ProvingKey key, byte[] witness) {
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        Map<String, String> opts = Options.parse(args, GpuOptions.with("--curve", "--constraints", "--partitions",
                "--jobs", "--synthesis-workers", "--budget", "--policy", "--workers-per-device", "--verify", "--dir",
                "--backend", "--devices", "--cpu-fallback", "--finalizer-threads", "--limit", WitnessOption.NAME));
        List<SnarkCurve> curves = new ArrayList<>();
        for (String name : Options.list(opts, "--curve", "bn128")) {
            SnarkCurve curve = SnarkCurves.byName(name)
                    .orElseThrow(() -> new UsageException("unknown curve '" + name + "' (bn128 or bls12381)"));
            if (!curves.contains(curve)) {
                curves.add(curve);
            }
        }
        List<Integer> constraintCounts = Options.intList(opts, "--constraints", List.of(1 << 16));
        if (constraintCounts.isEmpty() || constraintCounts.stream().anyMatch(n -> n < 1)) {
            throw new UsageException("--constraints must be positive");
        }
        int partitions = Options.intValue(opts, "--partitions", 10);
        int jobs = Options.intValue(opts, "--jobs", 4);
        List<Integer> synthesisWorkers = Options.intList(opts, "--synthesis-workers", List.of(2));
        if (synthesisWorkers.stream().anyMatch(w -> w < 1)) {
            throw new UsageException("--synthesis-workers must be positive");
        }
        List<AdmissionPolicy> policies = new ArrayList<>();
        for (String p : Options.list(opts, "--policy", "budget")) {
            policies.add(switch (p) {
                case "budget" -> AdmissionPolicy.BUDGETED;
                case "baseline" -> BaselineAdmission.INSTANCE;
                default -> throw new UsageException("--policy must be budget or baseline (or both: budget,baseline)");
            });
        }
        WitnessDistribution witness = WitnessOption.of(opts);
        int workersPerDevice = Options.intValue(opts, "--workers-per-device", 1);
        int finalizerThreads = Options.intValue(opts, "--finalizer-threads", EngineConfig.DEFAULT_FINALIZER_THREADS);
        boolean verify = Boolean.parseBoolean(opts.getOrDefault("--verify", "true"));
        boolean cpuFallback = Boolean.parseBoolean(opts.getOrDefault("--cpu-fallback", "false"));
        String backend = opts.getOrDefault("--backend", "cpu");
        List<Integer> ordinals = Options.intList(opts, "--devices", List.of(0));
        if (ordinals.isEmpty()) {
            throw new UsageException("--devices needs at least one device");
        }
        Optional<MemoryPlan> plan = memoryPlan(opts, backend.equals("gpu") ? new HashSet<>(ordinals).size() : 0);
        if (plan.isEmpty()) {
            Options.require(opts, "--budget");
        }
        OptionalLong givenBudget = plan.isPresent() ? OptionalLong.empty()
                : OptionalLong.of(Options.bytes(opts, "--budget", 0));

        List<BackendDevice> devices = new ArrayList<>();
        List<Circuit> circuits = new ArrayList<>();
        try {
            Optional<String> unavailable = openDevices(backend, GpuOptions.config(opts), ordinals, cpuFallback, devices);
            if (unavailable.isPresent()) {
                out.println(unavailable.get());
                return 3;
            }
            int circuitCount = curves.size() * constraintCounts.size();
            for (SnarkCurve curve : curves) {
                for (int constraints : constraintCounts) {
                    circuits.add(load(curve, constraints, witness,
                            dir(opts, curve, constraints, witness, circuitCount), out));
                }
            }
            out.printf("devices: %s%n", devices);
            long keyBytes = circuits.stream().mapToLong(c -> c.key().byteSize()).sum();
            long budget = givenBudget.isPresent() ? givenBudget.getAsLong() : plan.orElseThrow().budgetBytes() - keyBytes;
            if (plan.isPresent()) {
                // As in the service, the resident keys are part of the budget the limit leaves.
                out.printf("memory: %s; keys %d MiB of it, %d MiB for partitions%n", plan.get().describe(),
                        keyBytes >> 20, budget >> 20);
                if (budget < MemoryPlan.MIN_BUDGET_BYTES) {
                    out.println("the keys leave less than " + (MemoryPlan.MIN_BUDGET_BYTES >> 20)
                            + " MiB of the budget for partitions: raise --limit");
                    return 2;
                }
            }
            for (AdmissionPolicy policy : policies) {
                for (int workers : synthesisWorkers) {
                    EngineConfig config = EngineConfig.builder().budgetBytes(budget).synthesisWorkers(workers)
                            .workersPerDevice(workersPerDevice).finalizerThreads(finalizerThreads)
                            .verifyProofs(verify).admission(policy)
                            .queueCapacity(Math.max(EngineConfig.DEFAULT_QUEUE_CAPACITY, jobs * partitions)).build();
                    if (!runOnce(config, plan, circuits, devices, jobs, partitions, out)) {
                        return 1;
                    }
                }
            }
        } finally {
            for (Circuit c : circuits) {
                c.key().close();
            }
            for (BackendDevice d : devices) {
                if (d.backend() instanceof DeviceProverBackend device) {
                    device.close();
                }
            }
        }
        return 0;
    }

    /**
     * Fills {@code devices} (each backend wrapped to measure its busy time) and opens them, so the first measured
     * run does not pay for CUDA contexts and module loads; the reason when the backend cannot run here.
     */
    private static Optional<String> openDevices(String backend, GpuConfig gpuConfig, List<Integer> ordinals,
                                                boolean cpuFallback,
                                                List<BackendDevice> devices) throws UsageException {
        switch (backend) {
            case "cpu" -> {
                for (int k = 0; k < ordinals.size(); k++) {
                    String id = ordinals.size() == 1 ? "cpu" : "cpu" + k;
                    devices.add(new BackendDevice(id, new BusyTrackingBackend(new CpuProverBackend()), false));
                }
                return Optional.empty();
            }
            case "gpu" -> {
                DeviceProverBackend gpu = new GpuProverBackend(gpuConfig);
                Optional<String> unavailable = gpu.unavailableReason();
                if (unavailable.isPresent()) {
                    return unavailable;
                }
                int present = gpu.deviceCount();
                Map<Integer, BusyClock> gpus = new HashMap<>();
                for (int k = 0; k < ordinals.size(); k++) {
                    int ordinal = ordinals.get(k);
                    if (ordinal < 0 || ordinal >= present) {
                        return Optional.of("no GPU available: device " + ordinal + " requested, " + present
                                + " present");
                    }
                    String id = "gpu" + k;
                    DeviceProverBackend instance = gpu.forDevice(new DeviceShare(ordinal, id,
                            Collections.frequency(ordinals, ordinal), 0));
                    BusyClock physical = gpus.computeIfAbsent(ordinal, o -> new BusyClock("cuda" + o));
                    devices.add(new BackendDevice(id, new BusyTrackingDeviceBackend(instance, physical), false));
                    Optional<String> reason = instance.unavailableReason();
                    if (reason.isPresent()) {
                        return reason;
                    }
                }
                if (cpuFallback) {
                    devices.add(new BackendDevice("cpu", new BusyTrackingBackend(new CpuProverBackend()), true));
                }
                return Optional.empty();
            }
            default -> throw new UsageException("--backend must be cpu or gpu, got '" + backend + "'");
        }
    }

    /** One engine run: submit every job at once, wait for all, print the figures; false when a job failed. */
    private static boolean runOnce(EngineConfig config, Optional<MemoryPlan> plan, List<Circuit> circuits,
                                   List<BackendDevice> devices, int jobs, int partitions, PrintStream out)
            throws Exception {
        BufferTracker tracker = new BufferTracker();
        plan.ifPresent(tracker::useMemoryPlan);
        AtomicLong peakAbcPartitions = new AtomicLong();
        AtomicLong peakHeapCommitted = new AtomicLong();
        AtomicLong peakUnaccounted = new AtomicLong(Long.MIN_VALUE);
        tracker.addListener((event, snapshot) -> {
            peakAbcPartitions.accumulateAndGet(abcPartitions(snapshot), Math::max);
            peakHeapCommitted.accumulateAndGet(snapshot.process().heapCommittedBytes(), Math::max);
            peakUnaccounted.accumulateAndGet(snapshot.memory().unaccountedBytes(), Math::max);
        });
        Groth16PartitionProver prover = new Groth16PartitionProver(new LoadedCircuits(circuits.stream()
                .map(c -> new SingleCircuit(c.ref().id(), c.key())).toList()), devices);
        resetPeakRss();
        long startRss = tracker.snapshot().process().rssBytes();
        long keyBytes = circuits.stream().mapToLong(c -> c.key().byteSize()).sum();
        MemoryBudget memoryBudget = new MemoryBudget(config.budgetBytes());
        try (TrackedBuffer keysOnHost = tracker.track(BufferClass.KEY_HOST, Stage.RESIDENT, keyBytes);
             ProvingEngine engine = ProvingEngine.builder(config, prover).devices(devices)
                     .budget(memoryBudget).tracker(tracker).start()) {
            devices.forEach(d -> busy(d).reset());
            long start = System.nanoTime();
            List<JobId> ids = new ArrayList<>();
            AtomicLongArray latencies = new AtomicLongArray(jobs);
            for (int j = 0; j < jobs; j++) {
                Circuit circuit = circuits.get(j % circuits.size());
                JobRequest.Builder request = JobRequest.builder(circuit.ref()).verify(config.verifyProofs());
                for (int p = 0; p < partitions; p++) {
                    request.partition(PartitionInput.wtns(circuit.witness()));
                }
                JobId id = engine.submit(request.build());
                long submitted = System.nanoTime();
                int slot = j;
                engine.result(id).thenRun(() -> latencies.set(slot, System.nanoTime() - submitted));
                ids.add(id);
            }
            int proofs = 0;
            StageTimings stages = StageTimings.ZERO;
            for (JobId id : ids) {
                JobResult result = engine.await(id, Duration.ofHours(2));
                stages = stages.plusStages(result.timings());
                if (result.state() != JobState.DONE) {
                    out.println("job " + id + " ended " + result.state() + " "
                            + result.failure().map(Object::toString).orElse(""));
                    return false;
                }
                proofs += result.proofs().size();
            }
            long wall = System.nanoTime() - start;
            double seconds = wall / 1e9;
            PipelineSnapshot end = engine.snapshot();
            long latencySum = 0;
            for (int j = 0; j < jobs; j++) {
                latencySum += latencies.get(j);
            }
            double meanLatency = latencySum / 1e9 / jobs;
            double perJob = seconds / jobs;
            out.printf("%s, %d jobs x %d partitions, policy %s, synthesis workers %d, %d prove-start workers per"
                            + " device, %d finalizer threads, verify %s: %d proofs in %.1f s; peak partitions holding"
                            + " a/b/c: %d%n",
                    circuits.stream().map(c -> c.ref().id() + " (domain " + c.ref().domainSize() + ")").toList(),
                    jobs, partitions, config.admission().name(), config.synthesisWorkers(), config.workersPerDevice(),
                    config.finalizerThreads(), config.verifyProofs(), proofs, seconds, peakAbcPartitions.get());
            out.printf("  %.3f s per %d-partition job (wall / jobs, %d jobs in flight); mean job latency %.3f s; %s%n",
                    perJob, partitions, jobs, meanLatency,
                    config.verifyProofs() ? "every proof verified (pairing check)" : "proofs NOT verified");
            out.printf("  per partition (mean ms): queue wait %.1f, synthesis %.1f, device wait %.1f, prove start %.1f,"
                            + " finish %.1f, verify %.1f%n", perProof(stages.queueWait(), proofs),
                    perProof(stages.synthesis(), proofs), perProof(stages.deviceWait(), proofs),
                    perProof(stages.proving(), proofs), perProof(stages.finalizing(), proofs),
                    perProof(stages.verify(), proofs));
            StringBuilder busyFigures = new StringBuilder();
            for (BackendDevice d : devices) {
                BusyTrackingBackend b = busy(d);
                double fraction = b.busyNanos() / (double) wall;
                out.printf("  device %s: busy %.3f of the wall time, %d prove starts%n", d, fraction, b.starts());
                busyFigures.append(String.format(" busy_%s=%.3f", d.id(), fraction));
            }
            // Logical devices sharing a GPU overlap; the GPU's own figure is the union of their busy intervals.
            Map<BusyClock, Long> sharing = new LinkedHashMap<>();
            devices.forEach(d -> sharing.merge(busy(d).physical(), 1L, Long::sum));
            sharing.forEach((clock, logical) -> {
                if (logical > 1) {
                    double fraction = clock.busyNanos() / (double) wall;
                    out.printf("  GPU %s (%d logical devices): busy %.3f of the wall time (at least one prove start"
                            + " running)%n", clock.name(), logical, fraction);
                    busyFigures.append(String.format(" busy_%s=%.3f", clock.name(), fraction));
                }
            });
            out.printf("  fixed part: RSS %d MiB before the first job (JVM, mapped keys %d MiB); peak JVM heap committed"
                    + " %d MiB%n", startRss >> 20, keyBytes >> 20, peakHeapCommitted.get() >> 20);
            long peakRss = end.process().rssPeakBytes();
            if (plan.isPresent()) {
                long limit = plan.get().limit().bytes();
                out.printf("  limit %d MiB: peak RSS %d MiB = %.2f of the limit (%s); peak unaccounted %d MiB%n",
                        limit >> 20, peakRss >> 20, peakRss / (double) limit, peakRss <= limit ? "within" : "OVER",
                        peakUnaccounted.get() >> 20);
                busyFigures.append(String.format(" limit_bytes=%d fixed_bytes=%d peak_unaccounted_bytes=%d", limit,
                        plan.get().fixed().totalBytes(), peakUnaccounted.get()));
            }
            out.printf("peak_rss_bytes=%d peak_reserved_bytes=%d budget_bytes=%d proofs=%d proofs_per_s=%.3f policy=%s"
                            + " synthesis_workers=%d s_per_job=%.3f mean_job_latency_s=%.3f%s%n",
                    peakRss, memoryBudget.peakReserved(), config.budgetBytes(), proofs,
                    proofs / seconds, config.admission() == AdmissionPolicy.BUDGETED ? "budget" : "baseline",
                    config.synthesisWorkers(), perJob, meanLatency, busyFigures);
            return true;
        }
    }

    /**
     * With {@code --limit}, the service's rule: the limit (narrowed by the cgroup's) less this JVM's fixed part is
     * the budget, or {@code --budget} where that is smaller. Start the JVM with the options of {@code heap-opts} for
     * the same limit, as the service is started.
     */
    private static Optional<MemoryPlan> memoryPlan(Map<String, String> opts, int cudaContexts) throws UsageException {
        if (!opts.containsKey("--limit")) {
            return Optional.empty();
        }
        long limit = Options.bytes(opts, "--limit", 0);
        OptionalLong budget = opts.containsKey("--budget") ? OptionalLong.of(Options.bytes(opts, "--budget", 0))
                : OptionalLong.empty();
        try {
            return Optional.of(MemoryPlan.detect(OptionalLong.of(limit), FixedMemory.ofThisJvm(
                    FixedMemory.DEFAULT_MAX_THREADS, cudaContexts, FixedMemory.DEFAULT_MARGIN_BYTES), budget));
        } catch (IllegalStateException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static double perProof(Duration total, int proofs) {
        return proofs == 0 ? 0 : total.toNanos() / 1e6 / proofs;
    }

    private static BusyTrackingBackend busy(BackendDevice device) {
        return (BusyTrackingBackend) device.backend();
    }

    /** {@code --dir} for one circuit; with several circuits, one folder per circuit under it. */
    private static Path dir(Map<String, String> opts, SnarkCurve curve, int constraints, WitnessDistribution witness,
                            int circuitCount) {
        String given = opts.get("--dir");
        String name = "dev-" + curve.name() + "-" + constraints
                + (witness == WitnessDistribution.UNIFORM ? "" : "-" + witness.cliName());
        if (given == null) {
            return Path.of(".bench", name);
        }
        return circuitCount == 1 ? Path.of(given) : Path.of(given, name);
    }

    private static Circuit load(SnarkCurve curve, int constraints, WitnessDistribution distribution, Path dir,
                                PrintStream out) throws IOException {
        ensureDevCircuit(curve, constraints, distribution, dir, out);
        ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"), PointCheck.CURVE);
        try {
            byte[] witness = Files.readAllBytes(dir.resolve("witness.wtns"));
            CircuitRef ref = new CircuitRef("dev-" + curve.name() + "-" + constraints, key.nVars(), key.domainSize(),
                    key.nPublic());
            return new Circuit(ref, key, witness);
        } catch (IOException | RuntimeException e) {
            key.close();
            throw e;
        }
    }

    /** Partitions holding a/b/c: synthesis allocates the three vectors together, so ABC buffers / 3. */
    private static long abcPartitions(PipelineSnapshot snapshot) {
        return snapshot.count(BufferClass.ABC) / 3;
    }

    private static void ensureDevCircuit(SnarkCurve curve, int constraints, WitnessDistribution witness, Path dir,
                                         PrintStream out) throws IOException {
        if (Files.exists(dir.resolve("circuit.zkey")) && Files.exists(dir.resolve("witness.wtns"))) {
            return;
        }
        Files.createDirectories(dir);
        out.println("generating an INSECURE dev circuit of " + constraints + " constraints, " + witness.cliName()
                + " witness, into " + dir);
        try (DevSetup.Result r = DevSetup.generate(curve, constraints, 2, 1, 1, witness)) {
            ZkeyWriter.write(r.key(), dir.resolve("circuit.zkey"));
            WtnsWriter.write(r.witness(), dir.resolve("witness.wtns"));
        }
    }

    /** Resets VmHWM to the current RSS (Linux ≥ 4.0), so the peak covers the run, not the set-up. */
    private static void resetPeakRss() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException | UnsupportedOperationException e) {
            // Not Linux or not permitted: the peak then includes loading the keys and witnesses.
        }
    }
}
