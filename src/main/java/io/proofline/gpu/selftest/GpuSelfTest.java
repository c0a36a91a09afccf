package io.proofline.gpu.selftest;

import io.proofline.algebra.field.FieldOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;
import io.proofline.gpu.internal.DeviceBuffer;
import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.internal.GpuContext;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.internal.GpuDevice;
import io.proofline.gpu.internal.GpuDevices;
import io.proofline.gpu.internal.GpuGroup;
import io.proofline.gpu.internal.GpuMsm;
import io.proofline.gpu.internal.GpuNtt;
import io.proofline.gpu.internal.GpuStream;
import io.proofline.gpu.internal.KernelModule;
import io.proofline.gpu.internal.MsmSchedule;
import io.proofline.gpu.internal.MsmShape;
import io.proofline.gpu.internal.StepTimes;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Checks every kernel against the CPU on fresh random inputs (both curves, several sizes). Prints a table;
 * {@link #run()} returns the number of failed checks. Throws {@link io.proofline.gpu.GpuUnavailableException} when
 * there is no usable GPU. (Timing the kernels is the lab's: {@code gpu-bench}, {@code bench gpu}.)
 */
public final class GpuSelfTest {

    /** Settings: seed of the inputs, largest log2 size for the NTT and MSM checks. */
    public record Options(long seed, int maxLog) {
    }

    private record Row(String curve, String check, String size, boolean ok, String detail) {
    }

    private final PrintStream out;
    private final Options options;
    private final GpuConfig config;
    private final SplittableRandom random;
    private final List<Row> rows = new ArrayList<>();

    public GpuSelfTest(PrintStream out, Options options, GpuConfig config) {
        this.out = out;
        this.options = options;
        this.config = config;
        this.random = new SplittableRandom(options.seed());
    }

    public int run() {
        List<GpuDevice> devices = GpuDevices.discover();
        GpuDevice device = devices.getFirst();
        out.println("devices: " + devices);
        out.println("seed: " + options.seed());
        try (GpuContext context = GpuContext.open(device);
             KernelModule module = KernelModule.load(context, config.kernels());
             GpuStream stream = new GpuStream()) {
            out.println("tunables: " + module.tunables());
            for (GpuCurve curve : GpuCurve.values()) {
                checkField(module, stream, curve, curve.fq(), "fq");
                checkField(module, stream, curve, curve.fr(), "fr");
                checkFq2(module, stream, curve);
                for (int log : new int[] {1, 2, 5, 10, 11, 16, 20}) {
                    if (log <= options.maxLog()) {
                        checkNtt(module, stream, curve, log);
                    }
                }
                checkCosetH(module, stream, curve, Math.min(12, options.maxLog()));
                for (int rows : new int[] {1, 2, 7, 1000, (1 << 10) + 1, 1 << 16, 1 << 20}) {
                    if (rows <= 1 << options.maxLog()) {
                        checkAbc(module, stream, curve, rows);
                    }
                }
                for (int n : new int[] {1, 2, 1000, (1 << 13) + 5, 1 << 16, 1 << 20}) {
                    if (n <= 1 << options.maxLog()) {
                        for (ScalarMix mix : new ScalarMix[] {ScalarMix.UNIFORM, ScalarMix.WITNESS, ScalarMix.EQUAL}) {
                            checkBucketSort(module, stream, curve, n, mix);
                        }
                    }
                }
                checkBucketSort(module, stream, curve, (1 << 13) + 5, ScalarMix.WITNESS, MsmShape.MAX_WINDOW);
                checkMsm(module, stream, curve, 100, ScalarMix.ONES, false);
                checkMsm(module, stream, curve, 100, ScalarMix.SMALL, false);
                checkMsm(module, stream, curve, 1000, ScalarMix.EQUAL, false);
                checkMsmWidestWindow(module, stream, curve, 1 << 12);
                checkMsm(module, stream, curve, 1, ScalarMix.UNIFORM, false);
                checkMsm(module, stream, curve, 7, ScalarMix.WITNESS, false);
                checkMsm(module, stream, curve, 1 << 10, ScalarMix.UNIFORM, false);
                checkMsm(module, stream, curve, 1 << 10, ScalarMix.WITNESS, false);
                for (int log : new int[] {14, 20}) {
                    if (log <= options.maxLog()) {
                        checkMsm(module, stream, curve, 1 << log, ScalarMix.UNIFORM, true);
                        checkMsm(module, stream, curve, 1 << log, ScalarMix.WITNESS, true);
                        checkMsm(module, stream, curve, 1 << log, ScalarMix.EQUAL, true);
                    }
                }
                checkG2Msm(module, stream, curve, 1, ScalarMix.UNIFORM);
                checkG2Msm(module, stream, curve, 100, ScalarMix.ONES);
                checkG2Msm(module, stream, curve, 1 << 10, ScalarMix.WITNESS);
                checkG2Msm(module, stream, curve, 1 << Math.min(16, options.maxLog()), ScalarMix.UNIFORM);
            }
        }
        printTable();
        return (int) rows.stream().filter(r -> !r.ok()).count();
    }

    // ---- checks ---------------------------------------------------------------------------------------------------

    private void checkField(KernelModule module, GpuStream stream, GpuCurve curve, PrimeField f, String name) {
        // Edge values first: 0, 1, p − 1, 2.
        long[][] edges = {f.zero(), f.one(), f.neg(f.one()), f.fromLong(2)};
        guarded(curve, f.name() + " ops", "2^14",
                () -> checkFieldUnguarded(module, stream, curve, f, f.name(), name, edges, () -> f.random(random)));
    }

    /**
     * Fq2 (G2's coordinates; native-cuda/ff/fq2_t.cuh) against the host's {@link QuadraticField}: the kernel's
     * Karatsuba multiplication and complex squaring on random elements and on the edges 0, 1, u, −1, p − 1 + (p − 1)u.
     */
    private void checkFq2(KernelModule module, GpuStream stream, GpuCurve curve) {
        PrimeField fq = curve.fq();
        QuadraticField fq2 = new QuadraticField(fq);
        long[] minusOne = fq.neg(fq.one());
        long[][] edges = {concat(fq.zero(), fq.zero()), concat(fq.one(), fq.zero()), concat(fq.zero(), fq.one()),
                concat(minusOne, fq.zero()), concat(minusOne, minusOne)};
        guarded(curve, "fq2 ops", "2^14", () -> checkFieldUnguarded(module, stream, curve, fq2, "fq2", "fq2", edges,
                () -> concat(fq.random(random), fq.random(random))));
    }

    private static long[] concat(long[] a, long[] b) {
        long[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** The kernel {@code <curve>_<name>_selftest}'s a·b, a + b, a − b, a², −a against {@code f} on the host. */
    private void checkFieldUnguarded(KernelModule module, GpuStream stream, GpuCurve curve, FieldOps f,
                                     String label, String name, long[][] edges, Supplier<long[]> randomElement) {
        int n = 1 << 14;
        int w = f.width();
        long[] a = new long[n * w];
        long[] b = new long[n * w];
        for (int i = 0; i < n; i++) {
            System.arraycopy(randomElement.get(), 0, a, i * w, w);
            System.arraycopy(randomElement.get(), 0, b, i * w, w);
        }
        // The edges and their pairings first.
        for (int i = 0; i < edges.length * edges.length; i++) {
            System.arraycopy(edges[i / edges.length], 0, a, i * w, w);
            System.arraycopy(edges[i % edges.length], 0, b, i * w, w);
        }
        long[] got = new long[5 * n * w];
        try (DeviceBuffer da = DeviceBuffer.of(a); DeviceBuffer db = DeviceBuffer.of(b);
             DeviceBuffer dout = DeviceBuffer.allocate(8L * got.length)) {
            int threads = module.tunables().elementwiseThreads();
            module.launch(curve.kernel(name + "_selftest"), KernelModule.blocksFor(n, threads), threads, stream,
                    da, db, dout, (long) n);
            stream.synchronize();
            dout.download(got);
        }
        String[] ops = {"mul", "add", "sub", "sqr", "neg"};
        int[] bad = new int[ops.length];
        long[] want = new long[w];
        for (int i = 0; i < n; i++) {
            for (int op = 0; op < ops.length; op++) {
                switch (op) {
                    case 0 -> f.mul(a, i * w, b, i * w, want, 0);
                    case 1 -> f.add(a, i * w, b, i * w, want, 0);
                    case 2 -> f.sub(a, i * w, b, i * w, want, 0);
                    case 3 -> f.sqr(a, i * w, want, 0);
                    default -> f.neg(a, i * w, want, 0);
                }
                if (!Arrays.equals(got, (5 * i + op) * w, (5 * i + op + 1) * w, want, 0, w)) {
                    bad[op]++;
                }
            }
        }
        for (int op = 0; op < ops.length; op++) {
            record(curve, label + " " + ops[op], "2^14", bad[op] == 0, bad[op] + " mismatches");
        }
    }

    private void checkNtt(KernelModule module, GpuStream stream, GpuCurve curve, int logN) {
        guarded(curve, "ntt", "2^" + logN, () -> checkNttUnguarded(module, stream, curve, logN));
    }

    private void checkNttUnguarded(KernelModule module, GpuStream stream, GpuCurve curve, int logN) {
        PrimeField fr = curve.fr();
        int n = 1 << logN;
        long[] omega = GpuNtt.rootOfUnity(fr, logN);
        long[] x = randomElements(fr, n);
        long[] y = randomElements(fr, n);
        long[] gotX = new long[x.length];
        long[] gotY = new long[y.length];
        try (GpuNtt ntt = new GpuNtt(module, curve, logN); DeviceBuffer dx = DeviceBuffer.of(x);
             DeviceBuffer dy = DeviceBuffer.of(y)) {
            ntt.forward(dx, stream);
            ntt.inverse(dy, stream);
            stream.synchronize();
            dx.download(gotX);
            dy.download(gotY);
        }
        ReferenceNtt.transform(fr, x, logN, omega);
        ReferenceNtt.inverse(fr, y, logN, omega);
        record(curve, "ntt forward", "2^" + logN, Arrays.equals(gotX, x), mismatches(fr, gotX, x));
        record(curve, "ntt inverse", "2^" + logN, Arrays.equals(gotY, y), mismatches(fr, gotY, y));
    }

    /** DESIGN §7's H on the CPU: for each of a, b, c inverse NTT, ·ω_2N^i, NTT; then a·b − c. */
    private void checkCosetH(KernelModule module, GpuStream stream, GpuCurve curve, int logN) {
        guarded(curve, "coset H", "2^" + logN, () -> checkCosetHUnguarded(module, stream, curve, logN));
    }

    private void checkCosetHUnguarded(KernelModule module, GpuStream stream, GpuCurve curve, int logN) {
        PrimeField fr = curve.fr();
        int n = 1 << logN;
        int w = fr.limbs();
        long[][] abc = {randomElements(fr, n), randomElements(fr, n), randomElements(fr, n)};
        long[] got = new long[n * w];
        try (GpuNtt ntt = new GpuNtt(module, curve, logN); DeviceBuffer a = DeviceBuffer.of(abc[0]);
             DeviceBuffer b = DeviceBuffer.of(abc[1]); DeviceBuffer c = DeviceBuffer.of(abc[2])) {
            ntt.computeH(a, b, c, stream);
            stream.synchronize();
            a.download(got);
        }
        long[] omega = GpuNtt.rootOfUnity(fr, logN);
        long[] shift = GpuNtt.rootOfUnity(fr, logN + 1);
        for (long[] v : abc) {
            ReferenceNtt.inverse(fr, v, logN, omega);
            long[] power = fr.one();
            for (int i = 0; i < n; i++) {
                fr.mul(v, i * w, power, 0, v, i * w);
                fr.mul(power, 0, shift, 0, power, 0);
            }
            ReferenceNtt.transform(fr, v, logN, omega);
        }
        long[] want = new long[n * w];
        for (int i = 0; i < n; i++) {
            fr.mul(abc[0], i * w, abc[1], i * w, want, i * w);
            fr.sub(want, i * w, abc[2], i * w, want, i * w);
        }
        record(curve, "coset H = a'b' - c'", "2^" + logN, Arrays.equals(got, want), mismatches(fr, got, want));
    }

    /** a/b/c from constraint rows on the device against the host's evaluation ({@link AbcCheck}). */
    private void checkAbc(KernelModule module, GpuStream stream, GpuCurve curve, int rows) {
        guarded(curve, "a/b/c from rows", sizeName(rows), () -> {
            try (AbcCheck check = new AbcCheck(curve, rows, Math.max(3, rows), random.nextLong())) {
                AbcCheck.Outcome outcome = check.run(module, stream);
                record(curve, "a/b/c from rows", sizeName(rows), outcome.ok(), outcome.detail());
            }
        });
    }

    /**
     * The MSM's sort of digits into buckets ({@link MsmSchedule}) against {@link BucketSortReference}: every bucket's
     * count, its offset, and its pairs as a set (the order inside a bucket is free).
     */
    private void checkBucketSort(KernelModule module, GpuStream stream, GpuCurve curve, int n, ScalarMix mix) {
        checkBucketSort(module, stream, curve, n, mix, config.msmShape().windowBits(n));
    }

    private void checkBucketSort(KernelModule module, GpuStream stream, GpuCurve curve, int n, ScalarMix mix, int c) {
        String check = "msm bucket sort " + mix.name().toLowerCase(Locale.ROOT);
        guarded(curve, check, sizeName(n), () -> {
            PrimeField fr = curve.fr();
            long[] scalars = new long[n * fr.limbs()];
            long[] equal = fr.random(random);
            for (int i = 0; i < n; i++) {
                long[] s = mix == ScalarMix.EQUAL ? equal : MsmInput.scalar(fr, mix, random);
                fr.fromMontgomery(s, 0, scalars, i * fr.limbs());
            }
            try (DeviceBuffer d = DeviceBuffer.of(scalars);
                 MsmSchedule schedule = new MsmSchedule(module, curve, n, c, config.msmShape())) {
                schedule.enqueueSort(d, stream, StepTimes.NONE);
                int windows = MsmShape.windows(c, curve.scalarBits());
                String mismatch = BucketSortReference.of(scalars, n, c, windows)
                        .mismatch(schedule.downloadSorted(stream));
                record(curve, check + " c=" + c, sizeName(n), mismatch == null,
                        mismatch == null ? "every bucket's pairs as on the CPU" : mismatch);
            }
        });
    }

    /**
     * An MSM with the widest window on witness-like scalars (r − 1 among them): BN254 then has 15 windows (its
     * scalars are below 2^254, so 15 · 17 bits hold them and the top carry), BLS12-381 16.
     */
    private void checkMsmWidestWindow(KernelModule module, GpuStream stream, GpuCurve curve, int n) {
        int c = MsmShape.MAX_WINDOW;
        String check = "g1 msm witness c=" + c + " (" + MsmShape.windows(c, curve.scalarBits()) + " windows)";
        guarded(curve, check, sizeName(n), () -> {
            ReferenceG1 g1 = ReferenceG1.of(curve);
            MsmInput input = MsmInput.create(g1, curve.fr(), n, ScalarMix.WITNESS, false, random);
            long[] expected = g1.toAffine(g1.multiply(g1.fromAffine(g1.generator()), input.expectedLog()));
            try (DeviceBuffer points = DeviceBuffer.of(input.points());
                 DeviceBuffer scalars = DeviceBuffer.of(input.scalars());
                 GpuMsm msm = new GpuMsm(module, GpuGroup.g1(curve), n, c, config.msmShape())) {
                boolean ok = Arrays.equals(g1.affineFromXyzz(msm.run(points, scalars, stream)), expected);
                record(curve, check, sizeName(n), ok, ok ? "equal to (Σ s·k)·G" : "differs from (Σ s·k)·G");
            }
        });
    }

    /**
     * Points with known discrete logs kᵢ (random for small n, an arithmetic progression a + i·d otherwise, so that
     * making them costs one addition each), plus a point at infinity and a repeated point; the expected result is
     * (Σ sᵢ·kᵢ mod r)·G, computed on the CPU by the reference.
     */
    private void checkMsm(KernelModule module, GpuStream stream, GpuCurve curve, int n, ScalarMix mix,
                          boolean progression) {
        guarded(curve, "g1 msm " + mix.name().toLowerCase(Locale.ROOT), sizeName(n),
                () -> checkMsmUnguarded(module, stream, curve, n, mix, progression));
    }

    private void checkMsmUnguarded(KernelModule module, GpuStream stream, GpuCurve curve, int n, ScalarMix mix,
                                   boolean progression) {
        ReferenceG1 g1 = ReferenceG1.of(curve);
        PrimeField fr = curve.fr();
        MsmInput input = MsmInput.create(g1, fr, n, mix, progression, random);
        long[] expected = g1.toAffine(g1.multiply(g1.fromAffine(g1.generator()), input.expectedLog()));
        try (DeviceBuffer points = DeviceBuffer.of(input.points()); DeviceBuffer scalars = DeviceBuffer.of(input.scalars());
             GpuMsm msm = new GpuMsm(module, curve, n, config.msmShape())) {
            long[] got = g1.affineFromXyzz(msm.run(points, scalars, stream));
            boolean ok = Arrays.equals(got, expected) && g1.isOnCurve(got);
            record(curve, "g1 msm " + mix.name().toLowerCase(Locale.ROOT) + " c=" + msm.windowBits(),
                    sizeName(n), ok, ok ? "equal to (Σ s·k)·G" : "differs from (Σ s·k)·G");
        }
    }

    /** G2 MSM against the CPU's {@link io.proofline.algebra.curve.Msm}. */
    private void checkG2Msm(KernelModule module, GpuStream stream, GpuCurve curve, int n, ScalarMix mix) {
        String check = "g2 msm " + mix.name().toLowerCase(Locale.ROOT);
        guarded(curve, check, sizeName(n), () -> {
            G2MsmInput input = G2MsmInput.create(curve, n, mix, random);
            try (DeviceBuffer points = DeviceBuffer.of(input.points());
                 DeviceBuffer scalars = DeviceBuffer.of(input.scalars());
                 GpuMsm msm = new GpuMsm(module, GpuGroup.g2(curve), n, config.msmShape())) {
                long[] got = msm.runAffine(points, scalars, stream);
                boolean ok = Arrays.equals(got, input.expected());
                record(curve, check + " c=" + msm.windowBits(), sizeName(n), ok,
                        ok ? "equal to the CPU's Msm" : "differs from the CPU's Msm");
            }
        });
    }

    /** Runs a check; an exception (a CUDA error, say) is a failed row, and the run goes on to the next check. */
    private void guarded(GpuCurve curve, String check, String size, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            record(curve, check, size, false, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    private long[] randomElements(PrimeField f, int n) {
        int w = f.limbs();
        long[] out = new long[n * w];
        for (int i = 0; i < n; i++) {
            System.arraycopy(f.random(random), 0, out, i * w, w);
        }
        return out;
    }

    private static String mismatches(PrimeField f, long[] got, long[] want) {
        int w = f.limbs();
        int bad = 0;
        int first = -1;
        for (int i = 0; i < want.length / w; i++) {
            if (!Arrays.equals(got, i * w, (i + 1) * w, want, i * w, (i + 1) * w)) {
                bad++;
                first = first < 0 ? i : first;
            }
        }
        return bad == 0 ? "0 mismatches" : bad + " mismatches, first at " + first;
    }

    private static String sizeName(int n) {
        return Integer.bitCount(n) == 1 ? "2^" + Integer.numberOfTrailingZeros(n) : Integer.toString(n);
    }

    private void record(GpuCurve curve, String check, String size, boolean ok, String detail) {
        Row row = new Row(curve.toString(), check, size, ok, detail);
        rows.add(row);
        out.printf(Locale.ROOT, "  %-10s %-34s %-6s %s  %s%n", row.curve(), row.check(), row.size(),
                ok ? "ok  " : "FAIL", detail);
        out.flush();
    }

    private void printTable() {
        out.println();
        out.println("== gpu-selftest (seed " + options.seed() + ") ==");
        out.printf(Locale.ROOT, "%-10s %-34s %-6s %s%n", "curve", "check", "size", "result");
        for (Row r : rows) {
            out.printf(Locale.ROOT, "%-10s %-34s %-6s %s  %s%n", r.curve(), r.check(), r.size(),
                    r.ok() ? "ok  " : "FAIL", r.detail());
        }
        long failed = rows.stream().filter(r -> !r.ok()).count();
        out.println(failed == 0 ? "all " + rows.size() + " checks passed" : failed + " of " + rows.size() + " checks FAILED");
    }
}
