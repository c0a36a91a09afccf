package io.proofline.cli.bench;

import io.proofline.cli.UsageException;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.field.LaneMontgomery;
import io.proofline.algebra.field.PrimeField;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * {@code bench lanes [--runs N] [--batch N]}: BN254 𝔽q multiplication throughput on a batch of independent products
 * (issue #3's go/no-go): the scalar 4×64-bit Montgomery multiplication ({@link PrimeField#mul}) against
 * {@link LaneMontgomery} (Vector API, one element per lane), plus the cost of converting to and from lane form.
 * Needs {@code --add-modules jdk.incubator.vector} at run time. Every figure is the median of the runs after one
 * warm-up run; each run repeats the batch until about 20 M products.
 */
final class LanesBench implements BenchSuite {

    private static final long PRODUCTS_PER_RUN = 20_000_000L;

    @Override
    public String name() {
        return "lanes";
    }

    @Override
    public String description() {
        return "BN254 Fq mul throughput: scalar vs Vector API lanes [--runs N] [--batch N]";
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        int runs = 5;
        int batch = 1024;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(value(args, ++i));
                case "--batch" -> batch = Integer.parseInt(value(args, ++i));
                default -> throw new UsageException("bench lanes: unknown option " + args[i]);
            }
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            throw new UsageException("bench lanes: run java with --add-modules jdk.incubator.vector");
        }
        PrimeField f = Bn254.FQ;
        LaneMontgomery lm = new LaneMontgomery(f);
        if (batch % LaneMontgomery.LANES != 0) {
            throw new UsageException("bench lanes: --batch must be a multiple of " + LaneMontgomery.LANES);
        }
        out.println("# bench lanes: " + AlgebraBench.machine());
        out.printf("# %d independent BN254 Fq products per batch, %d lanes (%s), median of %d runs after 1 warm-up%n",
                batch, LaneMontgomery.LANES, LaneMontgomery.SPECIES, runs);
        SplittableRandom rnd = new SplittableRandom(11);
        long[] a = new long[4 * batch];
        long[] b = new long[4 * batch];
        long[] r = new long[4 * batch];
        for (int i = 0; i < batch; i++) {
            System.arraycopy(f.random(rnd), 0, a, 4 * i, 4);
            System.arraycopy(f.random(rnd), 0, b, 4 * i, 4);
        }
        int reps = (int) Math.max(1, PRODUCTS_PER_RUN / batch);
        final int n = batch;

        double scalar = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int k = 0; k < reps; k++) {
                for (int i = 0; i < n; i++) {
                    f.mul(a, 4 * i, b, 4 * i, r, 4 * i);
                }
            }
            return System.nanoTime() - t0;
        }) / ((double) reps * n);

        long[] al = new long[LaneMontgomery.LIMBS * n];
        long[] bl = new long[LaneMontgomery.LIMBS * n];
        long[] rl = new long[LaneMontgomery.LIMBS * n];
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
        long[] expect = new long[4 * n];
        for (int i = 0; i < n; i++) {
            f.mul(a, 4 * i, b, 4 * i, expect, 4 * i);
        }
        lm.toLanes(a, 0, n, al, n, 0);
        lm.mul(al, bl, rl, n, 0, n);
        lm.fromLanes(rl, n, 0, n, r, 0);
        if (!Arrays.equals(expect, r)) {
            throw new IllegalStateException("bench lanes: lane products differ from the scalar ones");
        }

        out.println("| path | ns per Fq mul |");
        out.println("|---|---|");
        out.printf("| scalar Montgomery.mul4 (4x64, independent products) | %.2f |%n", scalar);
        out.printf("| Vector API lanes (9x29 limbs, lazily reduced) | %.2f |%n", lanes);
        out.printf("| to lane form (per element) | %.2f |%n", toLanes);
        out.printf("| from lane form (per element) | %.2f |%n", fromLanes);
        out.printf("| from plain lane form (per element) | %.2f |%n", fromPlain);
        out.printf("# lanes / scalar throughput: %.2fx%n", scalar / lanes);
        return 0;
    }

    private static String value(String[] args, int i) throws UsageException {
        if (i >= args.length) {
            throw new UsageException("bench lanes: " + args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static double median(int runs, java.util.function.LongSupplier timed) {
        timed.getAsLong();
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            t[i] = timed.getAsLong();
        }
        Arrays.sort(t);
        return runs % 2 == 1 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2.0;
    }
}
