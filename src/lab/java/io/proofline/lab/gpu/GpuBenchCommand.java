package io.proofline.lab.gpu;

import io.proofline.cli.Cli;
import io.proofline.cli.GpuOptions;
import io.proofline.cli.Options;
import io.proofline.cli.UsageException;
import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuUnavailableException;
import io.proofline.gpu.selftest.GpuSelfTest;

import java.io.PrintStream;
import java.util.Map;

/**
 * {@code gpu-bench [--seed N] [--max-log K] [--repeats R] [--checks all|timed]} and the GPU flags ({@link GpuOptions}):
 * the GPU backend's kernels timed ({@link KernelTimings}), after the product's {@code gpu-selftest} checks
 * ({@code --checks timed}: only the configurations timed, each checked once against its answer). Exit 0 when every
 * check passes, 1 on a failure, 3 with {@code no GPU available: <reason>} without a usable GPU.
 */
public final class GpuBenchCommand implements Cli.Command {

    private static final String[] OPTIONS = {"--seed", "--max-log", "--repeats", "--checks"};

    @Override
    public String usage() {
        return "gpu-bench [--seed N] [--max-log K (default 20)] [--repeats R (default 15)] [--checks all|timed] "
                + GpuOptions.USAGE;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws UsageException {
        Map<String, String> opts = Options.parse(args, GpuOptions.with(OPTIONS));
        if (Options.positionalCount(opts) != 0) {
            throw new UsageException("gpu-bench takes options only, got '" + opts.get("0") + "'");
        }
        long seed;
        try {
            seed = Long.parseLong(opts.getOrDefault("--seed", Long.toString(System.nanoTime())));
        } catch (NumberFormatException e) {
            throw new UsageException("--seed must be an integer, got '" + opts.get("--seed") + "'");
        }
        int maxLog = Options.intValue(opts, "--max-log", 20);
        int repeats = Options.intValue(opts, "--repeats", 15);
        if (maxLog < 1 || maxLog > 26 || repeats < 1) {
            throw new UsageException("--max-log must be in 1..26 and --repeats positive");
        }
        String checks = opts.getOrDefault("--checks", "all");
        if (!checks.equals("all") && !checks.equals("timed")) {
            throw new UsageException("--checks must be all or timed, got '" + checks + "'");
        }
        GpuConfig config = GpuOptions.config(opts);
        try {
            int failed = checks.equals("all")
                    ? new GpuSelfTest(out, new GpuSelfTest.Options(seed, maxLog), config).run() : 0;
            failed += new KernelTimings(out, new KernelTimings.Options(seed, maxLog, repeats), config).run();
            return failed == 0 ? 0 : 1;
        } catch (GpuUnavailableException e) {
            out.println(e.getMessage());
            return 3;
        }
    }
}
