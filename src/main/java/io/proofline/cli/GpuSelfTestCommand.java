package io.proofline.cli;

import io.proofline.gpu.GpuUnavailableException;
import io.proofline.gpu.selftest.GpuSelfTest;

import java.io.PrintStream;

/**
 * {@code gpu-selftest [--seed N] [--max-log K] [--bench] [--repeats R]}: every GPU kernel against the CPU on fresh
 * random inputs, both curves; with {@code --bench} also the timings. Exit 0 when all checks pass, 1 on any mismatch,
 * 3 with {@code no GPU available: <reason>} when there is no usable GPU.
 */
final class GpuSelfTestCommand implements Cli.Command {

    private final boolean benchByDefault;

    GpuSelfTestCommand(boolean benchByDefault) {
        this.benchByDefault = benchByDefault;
    }

    @Override
    public String usage() {
        return (benchByDefault ? "gpu-bench" : "gpu-selftest")
                + " [--seed N] [--max-log K (default 20)] [--repeats R (default 15)]" + (benchByDefault ? "" : " [--bench]") + " [--bench-only]";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws UsageException {
        long seed = System.nanoTime();
        int maxLog = 20;
        int repeats = 15;
        boolean bench = benchByDefault;
        boolean benchOnly = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seed" -> seed = Long.parseLong(value(args, ++i));
                case "--max-log" -> maxLog = Integer.parseInt(value(args, ++i));
                case "--repeats" -> repeats = Integer.parseInt(value(args, ++i));
                case "--bench" -> bench = true;
                case "--bench-only" -> {
                    bench = true;
                    benchOnly = true;
                }
                default -> throw new UsageException("unknown option " + args[i]);
            }
        }
        if (maxLog < 1 || maxLog > 26 || repeats < 1) {
            throw new UsageException("--max-log must be in 1..26 and --repeats positive");
        }
        try {
            int failed = new GpuSelfTest(out, new GpuSelfTest.Options(seed, maxLog, bench, repeats, benchOnly)).run();
            return failed == 0 ? 0 : 1;
        } catch (GpuUnavailableException e) {
            out.println(e.getMessage());
            return 3;
        }
    }

    private static String value(String[] args, int i) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
