package io.proofline.lab.gpu;

import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.internal.DeviceBuffer;
import io.proofline.gpu.internal.GpuContext;
import io.proofline.gpu.internal.GpuDevice;
import io.proofline.gpu.internal.GpuDevices;
import io.proofline.gpu.internal.GpuGroup;
import io.proofline.gpu.internal.GpuMsm;
import io.proofline.gpu.internal.GpuNtt;
import io.proofline.gpu.internal.GpuStream;
import io.proofline.gpu.internal.KernelModule;
import io.proofline.gpu.selftest.AbcCheck;
import io.proofline.gpu.selftest.G2MsmInput;
import io.proofline.gpu.selftest.MsmInput;
import io.proofline.gpu.selftest.ReferenceG1;
import io.proofline.gpu.selftest.ScalarMix;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code gpu-bench}'s timings: each kernel of the GPU backend at one size, 2^min(20, maxLog), both curves — a/b/c from
 * constraint rows, the G1 MSM on uniform, witness-like and equal scalars (its stages, the host's end-to-end run, and
 * the windows 12, 14, 15, 17 beside the default), the G2 MSM, the NTT both ways, the coset H step, and the field
 * multiplication rates. CUDA-event time, the median of {@code repeats} runs after three warm-ups; every configuration
 * timed is first checked once against its known answer (the selftest's references), and a wrong one is a failure.
 */
public final class KernelTimings {

    /** The seed of the inputs, log₂ of the largest size (at most 20 is used), the timed runs per line. */
    public record Options(long seed, int maxLog, int repeats) {
        public Options {
            if (maxLog < 1 || repeats < 1) {
                throw new IllegalArgumentException("max log and repeats must be positive");
            }
        }
    }

    private static final int WARMUPS = 3;
    /** The windows timed beside the default one for uniform scalars. */
    private static final int[] OTHER_WINDOWS = {12, 14, 15, 17};
    /** Products per element of the multiplication-rate kernels: {@code 2 · MUL_CHAIN}. */
    private static final int MUL_CHAIN = 256;

    private final PrintStream out;
    private final Options options;
    private final GpuConfig config;
    private final SplittableRandom random;
    private final List<String> lines = new ArrayList<>();
    private int failures;

    public KernelTimings(PrintStream out, Options options, GpuConfig config) {
        this.out = out;
        this.options = options;
        this.config = config;
        this.random = new SplittableRandom(options.seed());
    }

    /**
     * Times every kernel; returns the number of failures (a wrong answer, an error). Throws
     * {@link io.proofline.gpu.GpuUnavailableException} when there is no usable GPU.
     */
    public int run() {
        GpuDevice device = GpuDevices.discover().getFirst();
        out.println("timings on " + device + "; seed " + options.seed() + "; median of " + options.repeats()
                + " runs after " + WARMUPS + " warm-ups");
        try (GpuContext context = GpuContext.open(device);
             KernelModule module = KernelModule.load(context, config.kernels());
             GpuStream stream = new GpuStream()) {
            int logN = Math.min(20, options.maxLog());
            for (GpuCurve curve : GpuCurve.values()) {
                guarded(curve, "a/b/c from rows", () -> abc(module, stream, curve, logN));
                for (ScalarMix mix : new ScalarMix[] {ScalarMix.UNIFORM, ScalarMix.WITNESS, ScalarMix.EQUAL}) {
                    guarded(curve, "g1 msm " + name(mix), () -> g1Msm(module, stream, curve, logN, mix));
                }
                guarded(curve, "g2 msm uniform", () -> g2Msm(module, stream, curve, logN));
                guarded(curve, "ntt", () -> ntt(module, stream, curve, logN));
                guarded(curve, "mul chain", () -> multiplicationRates(module, stream, curve));
            }
        }
        out.println();
        out.println("== timings (CUDA events, median) ==");
        lines.forEach(out::println);
        out.println(failures == 0 ? "every timed configuration gave its known answer" : failures + " FAILED");
        return failures;
    }

    private void abc(KernelModule module, GpuStream stream, GpuCurve curve, int logN) {
        int rows = 1 << logN;
        try (AbcCheck check = new AbcCheck(curve, rows, Math.max(3, rows), random.nextLong())) {
            AbcCheck.Outcome outcome = check.run(module, stream);
            if (checked(curve, "a/b/c from rows", logN, outcome.ok(), outcome.detail())) {
                time(curve, "a/b/c from rows (" + check.shape() + ")", logN, stream, () -> check.enqueue(module, stream));
            }
        }
    }

    /** The G1 MSM on {@code mix} scalars: checked, timed, its stages and the host's run; other windows for uniform. */
    private void g1Msm(KernelModule module, GpuStream stream, GpuCurve curve, int logN, ScalarMix mix) {
        int n = 1 << logN;
        ReferenceG1 g1 = ReferenceG1.of(curve);
        MsmInput input = MsmInput.create(g1, curve.fr(), n, mix, true, random);
        long[] expected = g1.toAffine(g1.multiply(g1.fromAffine(g1.generator()), input.expectedLog()));
        try (DeviceBuffer points = DeviceBuffer.of(input.points());
             DeviceBuffer scalars = DeviceBuffer.of(input.scalars());
             GpuMsm msm = new GpuMsm(module, curve, n, config.msmShape())) {
            String what = "g1 msm " + name(mix) + " c=" + msm.windowBits();
            long[] got = g1.affineFromXyzz(msm.run(points, scalars, stream));
            if (!checked(curve, what, logN, Arrays.equals(got, expected) && g1.isOnCurve(got), "(Σ s·k)·G")) {
                return;
            }
            time(curve, what, logN, stream, () -> msm.enqueue(points, scalars, stream));
            long hostStart = System.nanoTime();
            msm.run(points, scalars, stream);
            line(String.format(Locale.ROOT, "%-10s %-40s %-6s %.3f ms (one run, host clock, incl. Horner)", curve,
                    "g1 msm run() end to end", size(logN), (System.nanoTime() - hostStart) / 1e6));
            stages(curve, "g1", logN, msm, points, scalars, stream);
            if (mix != ScalarMix.UNIFORM) {
                return;
            }
            for (int c : OTHER_WINDOWS) {
                try (GpuMsm other = new GpuMsm(module, GpuGroup.g1(curve), n, c, config.msmShape())) {
                    String otherWhat = "g1 msm uniform c=" + c;
                    if (checked(curve, otherWhat, logN,
                            Arrays.equals(g1.affineFromXyzz(other.run(points, scalars, stream)), expected), "(Σ s·k)·G")) {
                        time(curve, otherWhat, logN, stream, () -> other.enqueue(points, scalars, stream));
                    }
                }
            }
        }
    }

    /** The G2 MSM (ΣB2's) on uniform scalars against the CPU's MSM: checked, timed, its stages. */
    private void g2Msm(KernelModule module, GpuStream stream, GpuCurve curve, int logN) {
        int n = 1 << logN;
        G2MsmInput input = G2MsmInput.create(curve, n, ScalarMix.UNIFORM, random);
        try (DeviceBuffer points = DeviceBuffer.of(input.points());
             DeviceBuffer scalars = DeviceBuffer.of(input.scalars());
             GpuMsm msm = new GpuMsm(module, GpuGroup.g2(curve), n, config.msmShape())) {
            String what = "g2 msm uniform c=" + msm.windowBits();
            if (checked(curve, what, logN, Arrays.equals(msm.runAffine(points, scalars, stream), input.expected()),
                    "the CPU's Msm")) {
                time(curve, what, logN, stream, () -> msm.enqueue(points, scalars, stream));
                stages(curve, "g2", logN, msm, points, scalars, stream);
            }
        }
    }

    /** The NTT forward and inverse, in place, and the coset H step (3 inverse NTTs, 3 NTTs, a'b' − c'). */
    private void ntt(KernelModule module, GpuStream stream, GpuCurve curve, int logN) {
        int n = 1 << logN;
        PrimeField fr = curve.fr();
        try (GpuNtt ntt = new GpuNtt(module, curve, logN);
             DeviceBuffer a = BenchInputs.uniform(fr, n, random);
             DeviceBuffer b = BenchInputs.uniform(fr, n, random);
             DeviceBuffer c = BenchInputs.uniform(fr, n, random)) {
            time(curve, "ntt forward", logN, stream, () -> ntt.forward(a, stream));
            time(curve, "ntt inverse", logN, stream, () -> ntt.inverse(a, stream));
            time(curve, "coset H (3 iNTT, 3 NTT, a'b'-c')", logN, stream, () -> ntt.computeH(a, b, c, stream));
        }
    }

    /** 2^20 elements each squared and multiplied {@value #MUL_CHAIN} times: Fq, Fr and Fq2 multiplications per second. */
    private void multiplicationRates(KernelModule module, GpuStream stream, GpuCurve curve) {
        int elements = 1 << 20;
        for (String name : new String[] {"fq", "fr", "fq2"}) {
            PrimeField f = name.equals("fr") ? curve.fr() : curve.fq();
            String label = name.equals("fq2") ? f.name() + "2" : f.name();
            // Fq2 elements are two Fq elements side by side: 2^20 of them are 2^21 random Fq elements.
            int fqElements = name.equals("fq2") ? 2 * elements : elements;
            try (DeviceBuffer x = BenchInputs.uniform(f, fqElements, random)) {
                int threads = module.tunables().elementwiseThreads();
                double ms = time(curve, label + " mul chain (2·" + MUL_CHAIN + " per element)", 20, stream,
                        () -> module.launch(curve.kernel(name + "_mul_chain"), KernelModule.blocksFor(elements, threads),
                                threads, stream, x, (long) elements, MUL_CHAIN));
                line(String.format(Locale.ROOT, "%-10s %-40s %.1f G mul/s", curve, label + " multiplication rate",
                        2.0 * elements * MUL_CHAIN / (ms * 1e6)));
            }
        }
    }

    /** One run of {@code msm} with each stage's end marked: the split as one line. */
    private void stages(GpuCurve curve, String group, int logN, GpuMsm msm, DeviceBuffer points,
                        DeviceBuffer scalars, GpuStream stream) {
        try (EventStepTimes times = new EventStepTimes()) {
            msm.enqueue(points, scalars, stream, times);
            line(String.format(Locale.ROOT, "%-10s %-40s %-6s %s", curve, group + " msm stages (one run)", size(logN),
                    times.summary()));
        }
    }

    /** The median device time of the runs after the warm-ups, in ms; printed with the range. */
    private double time(GpuCurve curve, String what, int logN, GpuStream stream, Runnable work) {
        try (GpuTimer timer = new GpuTimer()) {
            double[] ms = timer.sample(stream, WARMUPS, options.repeats(), work);
            double median = ms[ms.length / 2];
            line(String.format(Locale.ROOT, "%-10s %-40s %-6s median %9.3f ms  (min %.3f, max %.3f, %d runs)", curve,
                    what, size(logN), median, ms[0], ms[ms.length - 1], ms.length));
            return median;
        }
    }

    /** Whether the configuration about to be timed gave its known answer; a wrong one is a failure, not timed. */
    private boolean checked(GpuCurve curve, String what, int logN, boolean ok, String answer) {
        if (!ok) {
            failures++;
            line(String.format(Locale.ROOT, "%-10s %-40s %-6s FAIL: differs from %s, not timed", curve, what,
                    size(logN), answer));
        }
        return ok;
    }

    /** Runs one kernel's lines; an exception (a CUDA error, say) is a failure and the run goes on. */
    private void guarded(GpuCurve curve, String what, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            failures++;
            line(String.format(Locale.ROOT, "%-10s %-40s FAIL %s: %s", curve, what, e.getClass().getSimpleName(),
                    e.getMessage()));
        }
    }

    /** Keeps a line for the final table and prints it at once (a run cut short still reports it). */
    private void line(String line) {
        lines.add(line);
        out.println("  time " + line);
        out.flush();
    }

    private static String name(ScalarMix mix) {
        return mix.name().toLowerCase(Locale.ROOT);
    }

    private static String size(int logN) {
        return "2^" + logN;
    }
}
