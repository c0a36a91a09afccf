package io.proofline.lab.bench;

import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.Msm;
import io.proofline.algebra.field.LaneMontgomery;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;
import io.proofline.cli.UsageException;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * {@code bench lanes [--runs N] [--batch N] [--msm-log-size K]}: the Vector API lane kernels ({@link LaneMontgomery},
 * issues #3, #22) against the scalar path in the same run, for BN254 and BLS12-381:
 * <ul>
 *   <li>𝔽q multiplication throughput on a batch of independent products: the scalar 64-bit-limb Montgomery
 *       multiplication ({@link PrimeField#mul}) against the lane kernel, plus the cost of converting to and from
 *       lane form;
 *   <li>𝔽q² multiplication, scalar ({@link QuadraticField#mul}) against lanes as {@code LaneSlopes2} forms it;
 *   <li>the G1 and G2 MSMs of 2^K random points and uniform scalars ({@link Msm#compute(CurveGroup, long[], long[],
 *       boolean)}, all cores) with the batch-affine additions on lanes and on the scalar path, alternating.
 * </ul>
 * Needs {@code --add-modules jdk.incubator.vector} at run time. Every figure is the median of the runs after one
 * warm-up run; a multiplication run repeats the batch until about 20 M products.
 */
final class LanesBench implements BenchSuite {

    private static final long PRODUCTS_PER_RUN = 20_000_000L;

    @Override
    public String name() {
        return "lanes";
    }

    @Override
    public String description() {
        return "BN254 and BLS12-381: Fq mul and G1/G2 MSM, scalar vs Vector API lanes [--runs N] [--batch N] "
                + "[--msm-log-size K]";
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        int runs = 5;
        int batch = 1024;
        int msmLog = 14;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(value(args, ++i));
                case "--batch" -> batch = Integer.parseInt(value(args, ++i));
                case "--msm-log-size" -> msmLog = Integer.parseInt(value(args, ++i));
                default -> throw new UsageException("bench lanes: unknown option " + args[i]);
            }
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            throw new UsageException("bench lanes: run java with --add-modules jdk.incubator.vector");
        }
        if (batch % LaneMontgomery.LANES != 0) {
            throw new UsageException("bench lanes: --batch must be a multiple of " + LaneMontgomery.LANES);
        }
        if (msmLog < 10 || msmLog > 20) {
            throw new UsageException("bench lanes: --msm-log-size must be between 10 and 20");
        }
        out.println("# bench lanes: " + AlgebraBench.machine());
        out.printf("# %d independent Fq products per batch, %d lanes (%s); MSMs of 2^%d points; median of %d runs "
                + "after 1 warm-up%n", batch, LaneMontgomery.LANES, LaneMontgomery.SPECIES, msmLog, runs);
        out.println("| curve | what | scalar | lanes | scalar / lanes |");
        out.println("|---|---|---|---|---|");
        for (CurveGroup[] groups : List.of(new CurveGroup[] {Bn254Curves.G1, Bn254Curves.G2},
                new CurveGroup[] {Bls12381Curves.G1, Bls12381Curves.G2})) {
            String curve = groups[0].name().substring(0, groups[0].name().indexOf('.'));
            fieldMul(curve, groups[0].baseField(), batch, runs, out);
            quadraticMul(curve, groups[0].baseField(), batch, runs, out);
            for (CurveGroup g : groups) {
                double[] ms = msm(g, 1 << msmLog, runs);
                out.printf("| %s | %s MSM 2^%d, ms | %.1f | %.1f | %.2f× |%n", curve, g.name().substring(curve.length() + 1),
                        msmLog, ms[0], ms[1], ms[0] / ms[1]);
            }
        }
        return 0;
    }

    /** ns per 𝔽q multiplication, scalar and on lanes, and the conversions; checks that both paths agree. */
    private static void fieldMul(String curve, PrimeField f, int batch, int runs, PrintStream out) {
        LaneMontgomery lm = LaneMontgomery.of(f);
        int w = f.limbs();
        int limbs = lm.limbs();
        SplittableRandom rnd = new SplittableRandom(11);
        long[] a = new long[w * batch];
        long[] b = new long[w * batch];
        long[] r = new long[w * batch];
        for (int i = 0; i < batch; i++) {
            System.arraycopy(f.random(rnd), 0, a, w * i, w);
            System.arraycopy(f.random(rnd), 0, b, w * i, w);
        }
        // about the same time per run for both curves: the 6-word products cost about twice the 4-word ones
        int reps = (int) Math.max(1, PRODUCTS_PER_RUN * 4 / (w * w) / batch);
        final int n = batch;

        double scalar = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < reps; k++) {
                for (int i = 0; i < n; i++) {
                    f.mul(a, w * i, b, w * i, r, w * i);
                }
            }
            return System.nanoTime() - t0;
        }) / ((double) reps * n);

        long[] al = new long[limbs * n];
        long[] bl = new long[limbs * n];
        long[] rl = new long[limbs * n];
        lm.toLanes(a, 0, n, al, n, 0);
        lm.toLanes(b, 0, n, bl, n, 0);
        double lanes = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < reps; k++) {
                lm.mul(al, bl, rl, n, 0, n);
            }
            return System.nanoTime() - t0;
        }) / ((double) reps * n);

        int convReps = Math.max(1, reps / 4);
        double toLanes = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < convReps; k++) {
                lm.toLanes(a, 0, n, al, n, 0);
            }
            return System.nanoTime() - t0;
        }) / ((double) convReps * n);
        lm.mul(al, bl, rl, n, 0, n);
        double fromLanes = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < convReps; k++) {
                lm.fromLanes(rl, n, 0, n, r, 0);
            }
            return System.nanoTime() - t0;
        }) / ((double) convReps * n);
        double fromPlain = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < convReps; k++) {
                lm.fromPlainLanes(bl, n, 0, n, r, 0);
            }
            return System.nanoTime() - t0;
        }) / ((double) convReps * n);

        // The two paths must agree: a check, not a figure (a wrong fast path would be worthless).
        long[] expect = new long[w * n];
        for (int i = 0; i < n; i++) {
            f.mul(a, w * i, b, w * i, expect, w * i);
        }
        lm.toLanes(a, 0, n, al, n, 0);
        lm.mul(al, bl, rl, n, 0, n);
        lm.fromLanes(rl, n, 0, n, r, 0);
        if (!Arrays.equals(expect, r)) {
            throw new IllegalStateException("bench lanes: " + curve + " lane products differ from the scalar ones");
        }
        out.printf("| %s | Fq mul, ns (%dx64 scalar, %dx29 lanes) | %.2f | %.2f | %.2f× |%n", curve, w, limbs, scalar,
                lanes, scalar / lanes);
        out.printf("| %s | to / from / from plain lane form, ns per element | - | %.2f / %.2f / %.2f | - |%n", curve,
                toLanes, fromLanes, fromPlain);
    }

    /**
     * ns per 𝔽q² product: the scalar {@link QuadraticField#mul} (Karatsuba, lazy reduction) against lanes as
     * {@code LaneSlopes2} forms it, c0 = a0b0 − a1b1 and c1 = a0b1 + a1b0 from four lane products; the two must agree.
     */
    private static void quadraticMul(String curve, PrimeField f, int batch, int runs, PrintStream out) {
        LaneMontgomery lm = LaneMontgomery.of(f);
        QuadraticField qf = new QuadraticField(f);
        int w = f.limbs();
        int width = 2 * w;
        int n = batch;
        int l = LaneMontgomery.LANES;
        SplittableRandom rnd = new SplittableRandom(13);
        long[] x = new long[width * n];
        long[] y = new long[width * n];
        for (int i = 0; i < 2 * n; i++) {
            System.arraycopy(f.random(rnd), 0, x, w * i, w);
            System.arraycopy(f.random(rnd), 0, y, w * i, w);
        }
        long[] expect = new long[width * n];
        int reps = (int) Math.max(1, PRODUCTS_PER_RUN / (w * w) / n);   // about 4 products of 4-word cost per run
        double perProduct = (double) reps * n;
        double scalar = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < reps; k++) {
                for (int i = 0; i < n; i++) {
                    qf.mul(x, width * i, y, width * i, expect, width * i);
                }
            }
            return System.nanoTime() - t0;
        }) / perProduct;
        long[] a0 = new long[lm.limbs() * n], a1 = new long[lm.limbs() * n];
        long[] b0 = new long[lm.limbs() * n], b1 = new long[lm.limbs() * n];
        lm.toLanes(x, 0, width, n, a0, n, 0);
        lm.toLanes(x, w, width, n, a1, n, 0);
        lm.toLanes(y, 0, width, n, b0, n, 0);
        lm.toLanes(y, w, width, n, b1, n, 0);
        long[] p = new long[lm.limbs() * n];    // the four products, at lane indices 0, l, 2l, 3l
        long[] c0 = new long[lm.limbs() * n], c1 = new long[lm.limbs() * n];
        double lanes = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < reps; k++) {
                for (int e = 0; e < n; e += l) {
                    lm.mulGroup(a0, e, b0, e, p, 0, n);
                    lm.mulGroup(a1, e, b1, e, p, l, n);
                    lm.mulGroup(a0, e, b1, e, p, 2 * l, n);
                    lm.mulGroup(a1, e, b0, e, p, 3 * l, n);
                    lm.subGroup(p, 0, p, l, c0, e, n);
                    lm.addGroup(p, 2 * l, p, 3 * l, c1, e, n);
                }
            }
            return System.nanoTime() - t0;
        }) / perProduct;
        long[] got = new long[width * n];
        lm.fromLanes(c0, n, 0, n, got, 0, width);
        lm.fromLanes(c1, n, 0, n, got, w, width);
        if (!Arrays.equals(expect, got)) {
            throw new IllegalStateException("bench lanes: " + curve + " Fq2 products on lanes differ from the scalar ones");
        }
        out.printf("| %s | Fq2 mul, ns (scalar Karatsuba; lanes 4 products) | %.2f | %.2f | %.2f× |%n", curve, scalar,
                lanes, scalar / lanes);
    }

    /** {scalar ms, lanes ms} per MSM of n distinct points (a random walk) and uniform scalars, the two alternating. */
    private static double[] msm(CurveGroup g, int n, int runs) {
        MsmInputs inputs = MsmInputs.random(g, n);
        long[] bases = inputs.bases();
        long[] scalars = inputs.scalars();
        long[][] results = new long[2][];
        long[] scalarTimes = new long[runs + 1];
        long[] laneTimes = new long[runs + 1];
        for (int run = 0; run <= runs; run++) {
            for (int path = 0; path < 2; path++) {
                long t0 = System.nanoTime();
                results[path] = Msm.compute(g, bases, scalars, path == 1);
                (path == 0 ? scalarTimes : laneTimes)[run] = System.nanoTime() - t0;
            }
            if (!Arrays.equals(results[0], results[1])) {
                throw new IllegalStateException("bench lanes: " + g.name() + " MSM on lanes differs from the scalar one");
            }
        }
        return new double[] {medianAfterWarmUp(scalarTimes) / 1e6, medianAfterWarmUp(laneTimes) / 1e6};
    }

    private static double medianAfterWarmUp(long[] times) {
        long[] t = Arrays.copyOfRange(times, 1, times.length);
        Arrays.sort(t);
        int runs = t.length;
        return runs % 2 == 1 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2.0;
    }

    private static String value(String[] args, int i) throws UsageException {
        if (i >= args.length) {
            throw new UsageException("bench lanes: " + args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static double median(int runs, LongSupplier timed) {
        timed.getAsLong();
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            t[i] = timed.getAsLong();
        }
        Arrays.sort(t);
        return runs % 2 == 1 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2.0;
    }
}
