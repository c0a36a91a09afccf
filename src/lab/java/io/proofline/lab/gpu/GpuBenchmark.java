package io.proofline.lab.gpu;

import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.internal.GpuContext;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.internal.GpuDevice;
import io.proofline.gpu.internal.GpuDevices;
import io.proofline.gpu.internal.GpuGroup;
import io.proofline.gpu.internal.GpuMsm;
import io.proofline.gpu.internal.GpuNtt;
import io.proofline.gpu.GpuProverBackend;
import io.proofline.gpu.selftest.ReferenceG1;
import io.proofline.gpu.internal.GpuStream;
import io.proofline.gpu.internal.KernelModule;
import io.proofline.gpu.internal.DeviceBuffer;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.setup.WitnessDistribution;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * {@code bench gpu}: G1 and G2 MSM and NTT at each chosen size on device-resident random inputs (uniform scalars), and whole
 * Groth16 proofs of INSECURE dev circuits on the GPU backend, both curves; one table row per measurement, printed the
 * moment it is measured so that a run cut short by a timeout still leaves its rows. Each row gives the median of
 * {@code repeats} runs after warm-up, and its ratio to DESIGN §8's bound and to ICICLE's RTX 4090 figure where DESIGN
 * has one ({@link PerformanceBounds}).
 *
 * <ul>
 * <li>MSM: CUDA-event time of the device part (sort, buckets, reduction, ones), and the host clock of the whole
 *     {@link GpuMsm#run} (with the copy-out and the host's Horner step); each size is first checked once against the
 *     known answer (inputs: {@link BenchInputs}).
 * <li>NTT: CUDA-event time of the forward and of the inverse transform, in place.
 * <li>proof: a dev circuit of 2^k constraints ({@link DevSetup}, in memory); prove start's first call (key upload) and
 *     the median of warm calls; prove finish (ΣB2 on CPU threads) timed separately; every proof verified.
 * </ul>
 *
 * <p>A row does not start when the time limit has passed, or when the previous row of its kind and curve, scaled
 * linearly to the new size, says it would not end in time.
 */
public final class GpuBenchmark {

    /**
     * What to measure.
     *
     * @param msmLogs       log₂ of the G1 MSM sizes
     * @param g2MsmLogs     log₂ of the G2 MSM sizes (ΣB2's group)
     * @param nttLogs       log₂ of the NTT sizes
     * @param proofLogs     log₂ of the dev circuits' constraint counts
     * @param warmups       untimed runs before the timed ones
     * @param repeats       timed runs per row (the median is reported)
     * @param finishRepeats proofs finished (and verified) per proof row
     * @param seconds       no row starts after this many seconds (or when it would not end in time)
     * @param witness       the MSMs' scalars and the proofs' witnesses: uniform, or mostly 0/1 as a PoRep witness
     */
    public record Options(List<GpuCurve> curves, List<Integer> msmLogs, List<Integer> g2MsmLogs, List<Integer> nttLogs,
                          List<Integer> proofLogs, int warmups, int repeats, int finishRepeats, long seconds,
                          long seed, WitnessDistribution witness) {
        public Options {
            curves = List.copyOf(curves);
            msmLogs = List.copyOf(msmLogs);
            g2MsmLogs = List.copyOf(g2MsmLogs);
            nttLogs = List.copyOf(nttLogs);
            proofLogs = List.copyOf(proofLogs);
            if (warmups < 0 || repeats < 1 || finishRepeats < 1 || seconds < 1) {
                throw new IllegalArgumentException("warm-ups ≥ 0, repeats ≥ 1, finish repeats ≥ 1, seconds ≥ 1");
            }
        }
    }

    /** Public signals of the dev circuits (as gpu-selftest --proofs). */
    private static final int PUBLIC = 2;
    private static final String HEADER = String.format(Locale.ROOT,
            "%-5s %-9s %-5s %10s %10s %10s %4s %11s %19s %15s %7s %7s  %s", "kind", "curve", "size", "median ms",
            "min", "max", "runs", "host/first", "bound ms (xyzz)", "t/bound (xyzz)", "4090 ms", "t/4090", "notes");

    private final PrintStream out;
    private final Options options;
    private final SplittableRandom random;
    private final long startNanos = System.nanoTime();
    private final long deadlineNanos;
    private final List<String> rows = new ArrayList<>();
    /** Per kind and curve: {log₂ size, seconds} of the last row measured, for the time estimate. */
    private final Map<String, double[]> lastRow = new HashMap<>();
    private int failures;
    private int skipped;

    /** The prove-start step that exists when ΣB2 ran on the device (GpuProverWorker's step names). */
    private static final String B2_ON_DEVICE_STEP = "msm B2";

    private final GpuConfig config;

    public GpuBenchmark(PrintStream out, Options options, GpuConfig config) {
        this.out = out;
        this.config = config;
        this.options = options;
        this.random = new SplittableRandom(options.seed());
        this.deadlineNanos = startNanos + options.seconds() * 1_000_000_000L;
    }

    /**
     * Runs every row; returns the number of failures (a wrong MSM result, a proof that does not verify, an error).
     * Throws {@link io.proofline.gpu.GpuUnavailableException} when there is no usable GPU.
     */
    public int run() {
        List<GpuDevice> devices = GpuDevices.discover();
        out.println("bench gpu on " + devices.getFirst() + "; seed " + options.seed() + "; " + options.warmups()
                + " warm-up(s), median of " + options.repeats() + "; time limit " + options.seconds() + " s");
        out.println("bounds: DESIGN §8 (MSM: batch-affine, in parentheses XYZZ buckets; NTT: docs/gpu-notes.md; proof: "
                + "prove start's MSMs + 6 NTTs); 4090: ICICLE on an RTX 4090, DESIGN §8 (2^20 only)");
        out.println(HEADER);
        out.flush();
        if (!options.msmLogs().isEmpty() || !options.g2MsmLogs().isEmpty() || !options.nttLogs().isEmpty()) {
            kernels(devices.getFirst());
        }
        if (!options.proofLogs().isEmpty()) {
            proofs();
        }
        out.println();
        out.println("== bench gpu (seed " + options.seed() + ", " + String.format(Locale.ROOT, "%.0f",
                secondsSince(startNanos)) + " s) ==");
        out.println(HEADER);
        rows.forEach(out::println);
        out.println(rows.size() - skipped + " rows measured, " + skipped + " skipped (time limit), "
                + (failures == 0 ? "no failures" : failures + " FAILED"));
        out.flush();
        return failures;
    }

    // ---- kernels --------------------------------------------------------------------------------------------------

    private void kernels(GpuDevice device) {
        try (GpuContext context = GpuContext.open(device);
             KernelModule module = KernelModule.load(context, config.kernels());
             GpuStream stream = new GpuStream(); GpuTimer timer = new GpuTimer()) {
            for (GpuCurve curve : options.curves()) {
                for (int log : options.msmLogs()) {
                    measured("msm", curve, log, () -> msm(module, stream, timer, curve, log));
                }
            }
            for (GpuCurve curve : options.curves()) {
                for (int log : options.g2MsmLogs()) {
                    measured("msm2", curve, log, () -> g2Msm(module, stream, timer, curve, log));
                }
            }
            for (GpuCurve curve : options.curves()) {
                for (int log : options.nttLogs()) {
                    measured("ntt", curve, log, () -> ntt(module, stream, timer, curve, log));
                }
            }
        }
    }

    private void msm(KernelModule module, GpuStream stream, GpuTimer timer, GpuCurve curve, int log) {
        int n = 1 << log;
        ReferenceG1 g1 = ReferenceG1.of(curve);
        long setup = System.nanoTime();
        try (BenchInputs.Msm in = BenchInputs.msm(curve, n, options.witness(), random, stream); GpuMsm msm = new GpuMsm(module, curve, n, config.msmShape())) {
            double setupS = secondsSince(setup);
            long[] expected = g1.toAffine(g1.multiply(g1.fromAffine(g1.generator()), in.expectedLog()));
            long[] got = g1.affineFromXyzz(msm.run(in.points(), in.scalars(), stream));
            boolean ok = Arrays.equals(got, expected) && g1.isOnCurve(got);
            if (!ok) {
                failures++;
            }
            double[] device = timer.sample(stream, options.warmups(), options.repeats(),
                    () -> msm.enqueue(in.points(), in.scalars(), stream));
            double[] host = new double[options.repeats()];
            for (int i = 0; i < host.length; i++) {
                long s = System.nanoTime();
                msm.run(in.points(), in.scalars(), stream);
                host[i] = millisSince(s);
            }
            Arrays.sort(host);
            String stages;
            try (EventStepTimes times = new EventStepTimes()) {
                msm.enqueue(in.points(), in.scalars(), stream, times);
                stages = times.summary();
            }
            PerformanceBounds.MsmBound bound = PerformanceBounds.msm(curve, n);
            row("msm", curve, log, device, ProofTiming.median(host), bound.batchAffineMs(), bound.xyzzMs(),
                    PerformanceBounds.icicleMsm(curve, n), String.format(Locale.ROOT,
                            "%s; c=%d; host column: run() incl. copy-out + Horner; inputs %.1f s; stages (one run, ms):"
                                    + " %s", ok ? "result = (Σ s·k)·G" : "RESULT WRONG", msm.windowBits(), setupS,
                            stages));
        }
    }

    /**
     * A G2 MSM (ΣB2's group) on the G1 MSM's schedule and window, checked once against (Σ s·k)·G2. Its bound is three
     * times the G1 XYZZ bound: an Fq2 multiplication costs three Fq multiplications (Karatsuba), so a G2 addition about
     * three G1 additions.
     */
    private void g2Msm(KernelModule module, GpuStream stream, GpuTimer timer, GpuCurve curve, int log) {
        int n = 1 << log;
        long setup = System.nanoTime();
        try (BenchInputs.G2Msm in = BenchInputs.g2Msm(curve, n, options.witness(), random, stream);
             GpuMsm msm = new GpuMsm(module, GpuGroup.g2(curve), n, config.msmShape())) {
            double setupS = secondsSince(setup);
            boolean ok = Arrays.equals(msm.runAffine(in.points(), in.scalars(), stream), in.expected());
            if (!ok) {
                failures++;
            }
            double[] device = timer.sample(stream, options.warmups(), options.repeats(),
                    () -> msm.enqueue(in.points(), in.scalars(), stream));
            String stages;
            try (EventStepTimes times = new EventStepTimes()) {
                msm.enqueue(in.points(), in.scalars(), stream, times);
                stages = times.summary();
            }
            PerformanceBounds.MsmBound g1 = PerformanceBounds.msm(curve, n);
            row("msm2", curve, log, device, Double.NaN, 3 * g1.batchAffineMs(), 3 * g1.xyzzMs(), OptionalDouble.empty(),
                    String.format(Locale.ROOT, "G2; %s; c=%d; bound: 3x G1's (Fq2 mul = 3 Fq mul); inputs %.1f s;"
                                    + " stages (one run, ms): %s", ok ? "result = (Σ s·k)·G2" : "RESULT WRONG",
                            msm.windowBits(), setupS, stages));
        }
    }

    private void ntt(KernelModule module, GpuStream stream, GpuTimer timer, GpuCurve curve, int log) {
        long setup = System.nanoTime();
        try (GpuNtt ntt = new GpuNtt(module, curve, log);
             DeviceBuffer x = BenchInputs.uniform(curve.fr(), 1 << log, random)) {
            double setupS = secondsSince(setup);
            for (boolean forward : new boolean[] {true, false}) {
                Runnable work = forward ? () -> ntt.forward(x, stream) : () -> ntt.inverse(x, stream);
                double[] ms = timer.sample(stream, options.warmups(), options.repeats(), work);
                double bound = PerformanceBounds.ntt(log);
                row(forward ? "ntt" : "intt", curve, log, ms, Double.NaN, bound, Double.NaN,
                        PerformanceBounds.icicleNtt(log), String.format(Locale.ROOT, "%s, in place; twiddles + input %.1f s",
                                forward ? "forward" : "inverse incl. ·1/N", setupS));
            }
        }
    }

    // ---- proofs ---------------------------------------------------------------------------------------------------

    private void proofs() {
        ProveStartRecorder steps = new ProveStartRecorder();
        try (GpuProverBackend gpu = new GpuProverBackend(config, steps)) {
            for (GpuCurve curve : options.curves()) {
                for (int log : options.proofLogs()) {
                    measured("proof", curve, log, () -> proof(gpu, steps, curve, log));
                }
            }
        }
    }

    /**
     * One dev circuit proved twice where the backend evaluates a/b/c on the device: a row with a/b/c from the key's
     * resident rows, and a row with a/b/c evaluated on the host (synthesis, timed once) and uploaded.
     */
    private void proof(GpuProverBackend gpu, ProveStartRecorder steps, GpuCurve curve, int log) {
        long setup = System.nanoTime();
        try (DevSetup.Result dev = DevSetup.generate(snarkCurve(curve), 1 << log, PUBLIC, options.seed() + log,
                1, options.witness());
             Arena arena = Arena.ofShared()) {
            ProvingKey key = dev.key();
            double setupS = secondsSince(setup);
            long synthesis = System.nanoTime();
            Synthesized abc = Synthesis.evaluate(key, dev.witness(), bytes -> arena.allocate(bytes, 8));
            double synthesisMs = (System.nanoTime() - synthesis) / 1e6;
            try {
                if (gpu.abcOnDevice()) {
                    proofRow(gpu, steps, curve, log, key, dev.witness(), null, setupS,
                            "a/b/c on the GPU from the key's rows");
                }
                proofRow(gpu, steps, curve, log, key, dev.witness(), abc, setupS, String.format(Locale.ROOT,
                        "a/b/c from the host (one synthesis on CPU threads %.1f ms, not in prove start)",
                        synthesisMs));
            } finally {
                gpu.evict(key);
            }
        }
    }

    private void proofRow(GpuProverBackend gpu, ProveStartRecorder steps, GpuCurve curve, int log, ProvingKey key,
                          Witness witness, Synthesized abc, double setupS, String abcNote) {
        ProofTiming t = ProofTiming.measure(gpu, key, witness, abc, options.repeats(), options.finishRepeats());
        long[] deviceBytes = gpu.deviceBytes();
        ProveStartSteps concurrent = steps.last();
        // One more prove start with the steps one after the other: each step's own device time beside its span.
        steps.aloneNext();
        gpu.proveStart(key, witness, abc == null ? AbcSource.DEVICE : AbcSource.host(abc));
        ProveStartSteps alone = steps.last();
        if (!t.allVerified()) {
            failures++;
        }
        int logDomain = Integer.numberOfTrailingZeros(key.domainSize());
        double bound = PerformanceBounds.proveStart(curve, key.nVars(), key.nPublic(), logDomain);
        row("proof", curve, log, t.warmStartMs(), t.firstStartMs(), bound, Double.NaN, OptionalDouble.empty(),
                String.format(Locale.ROOT, "%s; prove start warm (host/first: first call, key upload incl.); "
                                + "finish %.1f ms (median of %d, B2 %s); %s %d/%d; domain 2^%d, %d vars; "
                                + "device keys %d MiB, scratch %d MiB; setup %.1f s; last prove start's steps: %s; "
                                + "one prove start alone (%.1f ms): %s",
                        abcNote, t.finishMedianMs(), t.finishMs().length,
                        concurrent.ran(B2_ON_DEVICE_STEP) ? "on the GPU" : "on CPU threads",
                        t.allVerified() ? "verified" : "VERIFY FAILED", t.verified(), t.finishMs().length,
                        logDomain, key.nVars(), deviceBytes[0] >> 20, deviceBytes[1] >> 20, setupS,
                        concurrent.summary(), alone.hostMillis().values().stream().mapToDouble(Double::doubleValue).sum(),
                        alone.summary()));
    }

    private static SnarkCurve snarkCurve(GpuCurve curve) {
        return SnarkCurves.all().stream().filter(c -> c.fr().modulus().equals(curve.fr().modulus())
                && c.fq().modulus().equals(curve.fq().modulus())).findFirst().orElseThrow();
    }

    // ---- rows and the time limit ----------------------------------------------------------------------------------

    /** Runs one row unless the time limit forbids it; an exception is a failed row and the run goes on. */
    private void measured(String kind, GpuCurve curve, int log, Runnable body) {
        String key = kind + "/" + curve;
        double[] last = lastRow.get(key);
        double estimate = last == null ? 0 : last[1] * Math.pow(2, Math.max(0, log - last[0]));
        double left = (deadlineNanos - System.nanoTime()) / 1e9;
        if (left <= 0 || estimate > left) {
            skipped++;
            emit(String.format(Locale.ROOT, "%-5s %-9s 2^%-3d skipped: time limit (%.0f s left, this row ≈ %.0f s)",
                    kind, curve, log, Math.max(0, left), estimate));
            return;
        }
        long start = System.nanoTime();
        try {
            body.run();
        } catch (RuntimeException | OutOfMemoryError e) {
            failures++;
            emit(String.format(Locale.ROOT, "%-5s %-9s 2^%-3d FAIL %s: %s", kind, curve, log,
                    e.getClass().getSimpleName(), e.getMessage()));
        }
        lastRow.put(key, new double[] {log, secondsSince(start)});
    }

    private void row(String kind, GpuCurve curve, int log, double[] sortedMs, double hostMs, double boundMs,
                     double xyzzMs, OptionalDouble peerMs, String notes) {
        emit(formatRow(kind, curve, log, sortedMs, hostMs, boundMs, xyzzMs, peerMs, notes));
    }

    /**
     * One table row: median, min and max of the sorted times, the host-clock figure ({@code NaN}: none), the bound
     * (with the XYZZ one in parentheses unless {@code NaN}), the ratios, the peer's figure where there is one.
     */
    static String formatRow(String kind, GpuCurve curve, int log, double[] sortedMs, double hostMs, double boundMs,
                            double xyzzMs, OptionalDouble peerMs, String notes) {
        double median = ProofTiming.median(sortedMs);
        String boundText = Double.isNaN(xyzzMs) ? fixed(boundMs) : fixed(boundMs) + " (" + fixed(xyzzMs) + ")";
        String ratioText = Double.isNaN(xyzzMs) ? ratio(median, boundMs)
                : ratio(median, boundMs) + " (" + ratio(median, xyzzMs) + ")";
        return String.format(Locale.ROOT, "%-5s %-9s 2^%-3d %10.3f %10.3f %10.3f %4d %11s %19s %15s %7s %7s  %s", kind,
                curve, log, median, sortedMs[0], sortedMs[sortedMs.length - 1], sortedMs.length,
                Double.isNaN(hostMs) ? "-" : fixed(hostMs), boundText, ratioText,
                peerMs.isPresent() ? fixed(peerMs.getAsDouble()) : "-",
                peerMs.isPresent() ? ratio(median, peerMs.getAsDouble()) : "-", notes);
    }

    static String header() {
        return HEADER;
    }

    private void emit(String row) {
        rows.add(row);
        out.println(row);
        out.flush();
    }

    private static String fixed(double ms) {
        return String.format(Locale.ROOT, ms < 10 ? "%.3f" : "%.1f", ms);
    }

    private static String ratio(double a, double b) {
        return String.format(Locale.ROOT, "x%.2f", a / b);
    }

    private static double millisSince(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    private static double secondsSince(long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
