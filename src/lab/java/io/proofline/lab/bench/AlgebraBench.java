package io.proofline.lab.bench;

import io.proofline.cli.UsageException;
import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.curve.Msm;
import io.proofline.algebra.field.PrimeField;

import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.function.LongSupplier;

/**
 * {@code bench algebra [--runs N] [--msm-log-sizes 16,18]}: for BN254 and BLS12-381, 𝔽q multiplication and G1
 * mixed addition (XYZZ += affine, the MSM's inner step) in ns/op, and G1 MSMs of random points and scalars in ms
 * on {@link Msm#defaultExecutor()} (all cores). Every figure is the median of the runs after one warm-up run.
 */
final class AlgebraBench implements BenchSuite {

    @Override
    public String name() {
        return "algebra";
    }

    @Override
    public String description() {
        return "Fq mul, G1 mixed add, G1 MSM (both curves) [--runs N] [--msm-log-sizes 16,18]";
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        int runs = 5;
        int[] logSizes = {16, 18};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(value(args, ++i));
                case "--msm-log-sizes" -> logSizes = Arrays.stream(value(args, ++i).split(",")).mapToInt(Integer::parseInt).toArray();
                default -> throw new UsageException("bench algebra: unknown option " + args[i]);
            }
        }
        out.println("# bench algebra: " + machine());
        out.println("# batch-affine additions (G1, G2) on Vector API lanes: bn254 "
                + io.proofline.algebra.curve.Msm.usesVectorLanes(Bn254Curves.G1) + ", bls12381 "
                + io.proofline.algebra.curve.Msm.usesVectorLanes(Bls12381Curves.G1));
        out.printf("# median of %d runs after 1 warm-up; MSM on Msm.defaultExecutor() (%d workers)%n",
                runs, ((ForkJoinPool) Msm.defaultExecutor()).getParallelism());
        List<String> header = new ArrayList<>(List.of("curve", "Fq mul ns/op", "G1 mixed add ns/op"));
        for (int s : logSizes) {
            header.add("G1 MSM 2^" + s + " ms");
        }
        List<List<String>> rows = new ArrayList<>();
        for (CurveGroup g : List.of(Bn254Curves.G1, Bls12381Curves.G1)) {
            List<String> row = new ArrayList<>();
            row.add(g.name().substring(0, g.name().indexOf('.')));
            row.add(String.format("%.1f", fieldMul(g.baseField(), runs)));
            row.add(String.format("%.1f", mixedAdd(g, runs)));
            for (int s : logSizes) {
                row.add(String.format("%.1f", msm(g, 1 << s, runs)));
            }
            rows.add(row);
            out.println("# done " + g.name());
        }
        printTable(out, header, rows);
        return 0;
    }

    private static String value(String[] args, int i) throws UsageException {
        if (i >= args.length) {
            throw new UsageException("bench algebra: " + args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** ns per multiplication over a dependent chain (latency-bound, as in the MSM's formulas). */
    private static double fieldMul(PrimeField f, int runs) {
        SplittableRandom rnd = new SplittableRandom(1);
        long[] a = f.random(rnd);
        long[] b = f.random(rnd);
        int ops = 5_000_000;
        double ns = median(runs, () -> {
            long t0 = System.nanoTime();
            for (int i = 0; i < ops; i++) {
                f.mul(a, 0, b, 0, a, 0);
            }
            return System.nanoTime() - t0;
        }) / ops;
        if (a[0] == 42) {
            System.out.print("");   // keep the chain alive
        }
        return ns;
    }

    /** ns per XYZZ += affine (madd-2008-s). */
    private static double mixedAdd(CurveGroup g, int runs) {
        CurveOps ops = g.newOps();
        long[] p = ops.mulAffine(g.generator(), BigInteger.valueOf(123456789));
        long[] acc = new long[4 * g.fieldWidth()];
        ops.addAffineToXyzz(acc, 0, g.generator(), 0, acc, 0);
        int n = 1_000_000;
        return median(runs, () -> {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ops.addAffineToXyzz(acc, 0, p, 0, acc, 0);
            }
            return System.nanoTime() - t0;
        }) / n;
    }

    /** ms per MSM of n distinct points (a random walk, batch-normalised) and uniform scalars below r. */
    private static double msm(CurveGroup g, int n, int runs) {
        MsmInputs inputs = MsmInputs.random(g, n);
        long[] bases = inputs.bases();
        long[] scalars = inputs.scalars();
        return median(runs, () -> {
            long t0 = System.nanoTime();
            Msm.compute(g, bases, scalars);
            return System.nanoTime() - t0;
        }) / 1e6;
    }

    /** One warm-up, then the median of {@code runs} timings (ns). */
    private static double median(int runs, LongSupplier timed) {
        timed.getAsLong();
        long[] t = new long[runs];
        for (int i = 0; i < runs; i++) {
            t[i] = timed.getAsLong();
        }
        Arrays.sort(t);
        return runs % 2 == 1 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2.0;
    }

    static String machine() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse(cpu);
        } catch (Exception ignored) {
            // not Linux: leave it unknown
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + cpu + ", Java " + Runtime.version();
    }

    private static void printTable(PrintStream out, List<String> header, List<List<String>> rows) {
        int[] width = new int[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            for (List<String> r : rows) {
                width[c] = Math.max(width[c], r.get(c).length());
            }
        }
        StringBuilder sep = new StringBuilder("|");
        for (int w : width) {
            sep.append("-".repeat(w + 2)).append('|');
        }
        out.println(line(header, width));
        out.println(sep);
        for (List<String> r : rows) {
            out.println(line(r, width));
        }
    }

    private static String line(List<String> cells, int[] width) {
        StringBuilder sb = new StringBuilder("|");
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c);
            sb.append(' ').append(c == 0 ? pad(cell, width[c], false) : pad(cell, width[c], true)).append(" |");
        }
        return sb.toString();
    }

    private static String pad(String s, int w, boolean right) {
        String fill = " ".repeat(w - s.length());
        return right ? fill + s : s + fill;
    }
}
