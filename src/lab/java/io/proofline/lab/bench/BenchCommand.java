package io.proofline.lab.bench;

import io.proofline.cli.Cli;
import io.proofline.cli.UsageException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bench <suite> [options]}: runs a benchmark suite and prints a table. Each suite is its own
 * {@link BenchSuite}; add new ones to {@link #SUITES}.
 */
public final class BenchCommand implements Cli.Command {

    private static final List<BenchSuite> SUITES = List.of(new AlgebraBench(), new ProveBench(), new PipelineBench(),
            new GpuBench(), new LanesBench(), new HttpBench(), new SoakBench(), new WitnessBench());

    private final Map<String, BenchSuite> suites = new TreeMap<>();

    public BenchCommand() {
        for (BenchSuite s : SUITES) {
            suites.put(s.name(), s);
        }
    }

    @Override
    public String usage() {
        StringBuilder sb = new StringBuilder("bench <suite> [options]; suites:");
        for (BenchSuite s : suites.values()) {
            sb.append("\n      ").append(s.name()).append(": ").append(s.description());
        }
        return sb.toString();
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0) {
            throw new UsageException("bench: which suite? one of " + suites.keySet());
        }
        BenchSuite suite = suites.get(args[0]);
        if (suite == null) {
            throw new UsageException("bench: unknown suite '" + args[0] + "', expected one of " + suites.keySet());
        }
        return suite.run(Arrays.copyOfRange(args, 1, args.length), out);
    }
}
