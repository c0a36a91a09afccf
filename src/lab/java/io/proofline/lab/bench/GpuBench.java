package io.proofline.lab.bench;

import io.proofline.cli.GpuOptions;
import io.proofline.cli.Options;
import io.proofline.cli.UsageException;
import io.proofline.cli.WitnessOption;
import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.GpuUnavailableException;
import io.proofline.lab.gpu.GpuBenchmark;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bench gpu [--curves bn128,bls12381] [--msm 16-24] [--ntt 16-24] [--proofs 16-22] [--repeats 11]
 * [--warmup 3] [--finish-repeats 3] [--seconds 540] [--seed N]} and the GPU flags ({@link GpuOptions}): the GPU figures of issue #7 as one table
 * ({@link GpuBenchmark}). Sizes are log₂: a range {@code 16-24}, a list {@code 16,20,24}, or {@code none}. Exit 0 when
 * every row that ran is correct, 1 on a failure, 3 with one line {@code no GPU available: <reason>} without a GPU.
 */
final class GpuBench implements BenchSuite {

    private static final String[] OPTIONS = {"--curves", "--msm", "--g2-msm", "--ntt", "--proofs", "--repeats", "--warmup",
            "--finish-repeats", "--seconds", "--seed", WitnessOption.NAME};
    static final String DEFAULT_MSM = "16-24";
    static final String DEFAULT_G2_MSM = "16-22";
    static final String DEFAULT_NTT = "16-24";
    static final String DEFAULT_PROOFS = "16-22";
    /** Device calls on the test machine are limited to 10 minutes; this leaves a minute for start-up and the tail. */
    static final int DEFAULT_SECONDS = 540;

    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public String description() {
        return "GPU MSM, NTT and full proofs, both curves, vs DESIGN §8 bounds and ICICLE [--curves bn128,bls12381] "
                + "[--msm 16-24] [--g2-msm 16-22] [--ntt 16-24] [--proofs 16-22] (log2 sizes: a-b, a,b,c or none) [--repeats 11] "
                + "[--warmup 3] [--finish-repeats 3] [--seconds 540] [--seed N] " + WitnessOption.USAGE + " "
                + GpuOptions.USAGE;
    }

    @Override
    public int run(String[] args, PrintStream out) throws UsageException {
        GpuBenchmark.Options options = parse(args);
        GpuConfig config = GpuOptions.config(Options.parse(args, GpuOptions.with(OPTIONS)));
        try {
            return new GpuBenchmark(out, options, config).run() == 0 ? 0 : 1;
        } catch (GpuUnavailableException e) {
            out.println(e.getMessage());
            return 3;
        }
    }

    static GpuBenchmark.Options parse(String[] args) throws UsageException {
        Map<String, String> opts = Options.parse(args, GpuOptions.with(OPTIONS));
        if (Options.positionalCount(opts) != 0) {
            throw new UsageException("bench gpu takes options only, got '" + opts.get("0") + "'");
        }
        List<GpuCurve> curves = curves(opts.getOrDefault("--curves", "bn128,bls12381"));
        List<Integer> msm = logs("--msm", opts.getOrDefault("--msm", DEFAULT_MSM), 10, 26);
        List<Integer> g2Msm = logs("--g2-msm", opts.getOrDefault("--g2-msm", DEFAULT_G2_MSM), 10, 24);
        List<Integer> ntt = logs("--ntt", opts.getOrDefault("--ntt", DEFAULT_NTT), 1, 27);
        List<Integer> proofs = logs("--proofs", opts.getOrDefault("--proofs", DEFAULT_PROOFS), 4, 24);
        int repeats = Options.intValue(opts, "--repeats", 11);
        int warmup = Options.intValue(opts, "--warmup", 3);
        int finishRepeats = Options.intValue(opts, "--finish-repeats", 3);
        int seconds = Options.intValue(opts, "--seconds", DEFAULT_SECONDS);
        long seed;
        try {
            seed = Long.parseLong(opts.getOrDefault("--seed", Long.toString(System.nanoTime())));
        } catch (NumberFormatException e) {
            throw new UsageException("--seed must be an integer, got '" + opts.get("--seed") + "'");
        }
        if (repeats < 1 || warmup < 0 || finishRepeats < 1 || seconds < 1) {
            throw new UsageException("--repeats, --finish-repeats and --seconds must be positive, --warmup ≥ 0");
        }
        if (msm.isEmpty() && g2Msm.isEmpty() && ntt.isEmpty() && proofs.isEmpty()) {
            throw new UsageException("nothing to measure: --msm, --g2-msm, --ntt and --proofs are all none");
        }
        return new GpuBenchmark.Options(curves, msm, g2Msm, ntt, proofs, warmup, repeats, finishRepeats, seconds, seed,
                WitnessOption.of(opts));
    }

    /** {@code bn128} / {@code bn254} and {@code bls12381} / {@code bls12-381} / {@code bls12_381}, comma-separated. */
    static List<GpuCurve> curves(String value) throws UsageException {
        List<GpuCurve> curves = new ArrayList<>();
        for (String name : value.split(",")) {
            GpuCurve curve = switch (name.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "")) {
                case "bn128", "bn254" -> GpuCurve.BN254;
                case "bls12381" -> GpuCurve.BLS12_381;
                default -> throw new UsageException("--curves: unknown curve '" + name + "' (bn128, bls12381)");
            };
            if (!curves.contains(curve)) {
                curves.add(curve);
            }
        }
        return curves;
    }

    /** {@code a-b} (every log from a to b), {@code a,b,c}, or {@code none}; each within [min, max]. */
    static List<Integer> logs(String option, String value, int min, int max) throws UsageException {
        List<Integer> logs = new ArrayList<>();
        if (value.equals("none")) {
            return logs;
        }
        try {
            for (String part : value.split(",")) {
                int dash = part.indexOf('-');
                int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
                if (to < from) {
                    throw new UsageException(option + ": empty range " + part);
                }
                for (int log = from; log <= to; log++) {
                    if (log < min || log > max) {
                        throw new UsageException(option + ": log2 size " + log + " outside " + min + ".." + max);
                    }
                    if (!logs.contains(log)) {
                        logs.add(log);
                    }
                }
            }
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            throw new UsageException(option + " takes log2 sizes: 16-24, 16,20,24 or none (got '" + value + "')");
        }
        return logs;
    }
}
