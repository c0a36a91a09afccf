package io.proofline.lab.bench;

import io.proofline.cli.UsageException;
import io.proofline.witness.CalculatorOptions;
import io.proofline.witness.CircomWitness;
import io.proofline.witness.CircomWitnessCalculator;
import io.proofline.witness.WitnessInput;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code bench witness [--case DIR]... [--runs N] [--snarkjs PATH]}: the witness engine (the circuit's witness graph,
 * recorded by the first computation) against the circuit's wasm alone (Chicory, the engine's fallback and the
 * service's path before the graph) and against snarkjs, on the same circuit and input, in one run.
 *
 * <p>A case is a folder with {@code circuit.wasm} and {@code input.json}: by default every committed circom fixture
 * and the Poseidon chain of {@code scripts/lab/cli-bench.sh fixture} (52,320 constraints, a 2^16 domain) where it has
 * been built. Each engine of ours runs in a fresh JVM: load (parse, checks, compile), the first computation (cold;
 * for the graph engine, the recording run) and the median of the later half of at least {@code --runs} computations
 * and 5 s of them (warm), with the JVM's peak RSS (VmHWM). snarkjs runs {@code wtns calculate} as a process under
 * {@code /usr/bin/time -v} (median wall time and its peak RSS), and warm in one node process
 * ({@code scripts/node/wtns-timing.js}: the calculator built once, as many runs as the graph's child made, the median
 * of the later half). Every witness of ours is checked byte for byte against snarkjs's {@code .wtns}.
 */
final class WitnessBench implements BenchSuite {

    private static final Path POSEIDON_CHAIN = Path.of(".fixtures/bench/bn128/poseidon_chain");
    private static final Pattern RESULT = Pattern.compile("RESULT (\\S+) (\\S+) (\\S+) (\\S+) (\\S+) (\\S+)");
    /**
     * A child computes at least {@code --runs} witnesses and goes on until this much computing time has passed, so
     * that a small circuit's computation is compiled by the JIT as in a long-running service; warm is the median of
     * the later half.
     */
    private static final long WARM_NANOS = 5_000_000_000L;
    private static final int MAX_RUNS = 5_000;

    @Override
    public String name() {
        return "witness";
    }

    @Override
    public String description() {
        return "witness graph vs the wasm vs snarkjs wtns calculate (warm, cold, peak RSS) [--case DIR]... "
                + "[--runs N] [--snarkjs PATH]";
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            return child(args[1].equals("graph"), Path.of(args[2]), Integer.parseInt(args[3]), Path.of(args[4]), out);
        }
        List<Path> cases = new ArrayList<>();
        int runs = 15;
        Path snarkjs = Path.of(".fixtures/node_modules/.bin/snarkjs");
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null) {
                throw new UsageException("bench witness: " + args[i] + " needs a value");
            }
            switch (args[i++]) {
                case "--case" -> cases.add(Path.of(v));
                case "--runs" -> runs = Integer.parseInt(v);
                case "--snarkjs" -> snarkjs = Path.of(v);
                default -> throw new UsageException("bench witness: unknown option " + args[i - 1]);
            }
        }
        if (runs < 3) {
            throw new UsageException("bench witness: --runs must be at least 3 (a cold run and warm ones)");
        }
        if (cases.isEmpty()) {
            cases = defaultCases();
        }
        out.println("| case | values | graph: load / first / warm ms | graph RSS MiB | wasm: load / first / warm ms "
                + "| wasm RSS MiB | snarkjs CLI s (RSS MiB) | snarkjs warm ms | warm: wasm ÷ graph | snarkjs CLI ÷ "
                + "graph warm | snarkjs warm ÷ graph warm |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Path c : cases) {
            out.println(row(c, runs, snarkjs));
            out.flush();
        }
        return 0;
    }

    private static List<Path> defaultCases() throws Exception {
        List<Path> cases = new ArrayList<>();
        for (String root : List.of("src/test/resources/fixtures/bn128", "src/test/resources/fixtures/bls12381",
                "src/test/resources/witness")) {
            try (Stream<Path> dirs = Files.list(Path.of(root))) {
                dirs.filter(d -> Files.exists(d.resolve("circuit.wasm")) && Files.exists(d.resolve("input.json"))
                        && !d.getFileName().toString().startsWith("bus")) // snarkjs 0.7.6 cannot take bus inputs
                        .sorted().forEach(cases::add);
            }
        }
        if (Files.exists(POSEIDON_CHAIN.resolve("circuit.wasm"))) {
            cases.add(POSEIDON_CHAIN);
        }
        return cases;
    }

    private static String row(Path c, int runs, Path snarkjs) throws Exception {
        Path work = Files.createTempDirectory("bench-witness");
        double[] graph = ours(true, c, runs, work.resolve("graph.bin"));
        double[] wasm = ours(false, c, runs, work.resolve("wasm.bin"));
        double[] cli = snarkjsCli(snarkjs, c, work.resolve("snarkjs.wtns"));
        double snarkjsWarm = snarkjsWarm(snarkjs, c, (int) graph[5]);
        byte[] expected = Files.readAllBytes(work.resolve("snarkjs.wtns"));
        for (String mine : List.of("graph.bin", "wasm.bin")) {
            byte[] values = Files.readAllBytes(work.resolve(mine));
            if (!Arrays.equals(values, 0, values.length, expected, expected.length - values.length, expected.length)) {
                throw new IllegalStateException(c + ": the " + mine + " witness differs from snarkjs's");
            }
        }
        String name = c.getParent().getFileName() + "/" + c.getFileName();
        return String.format("| %s | %d | %.0f / %.0f / **%.2f** | %.0f | %.0f / %.0f / %.2f | %.0f | %.2f (%.0f) | "
                        + "%.2f | %.1f× | %.0f× | %.1f× |", name, (long) graph[4], graph[0], graph[1], graph[2],
                graph[3] / 1024, wasm[0], wasm[1], wasm[2], wasm[3] / 1024, cli[0], cli[1] / 1024, snarkjsWarm,
                wasm[2] / graph[2], cli[0] * 1000 / graph[2], snarkjsWarm / graph[2]);
    }

    /** {load ms, first ms, warm median ms, peak RSS KiB, witness values, runs} from a fresh JVM. */
    private static double[] ours(boolean graph, Path c, int runs, Path witness) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.proofline.Proofline", "bench", "witness", "--child",
                graph ? "graph" : "wasm", c.toString(), Integer.toString(runs), witness.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("witness child failed on " + c + ":\n" + text);
        }
        Matcher m = RESULT.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no RESULT from the witness child:\n" + text);
        }
        return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5)),
                Double.parseDouble(m.group(6))};
    }

    /** The median of 3 {@code snarkjs wtns calculate} processes: {wall seconds, peak RSS KiB}. */
    private static double[] snarkjsCli(Path snarkjs, Path c, Path wtns) throws Exception {
        double[][] runs = new double[3][];
        for (int i = 0; i < runs.length; i++) {
            Process p = new ProcessBuilder("/usr/bin/time", "-v", snarkjs.toString(), "wtns", "calculate",
                    c.resolve("circuit.wasm").toString(), c.resolve("input.json").toString(), wtns.toString())
                    .redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException("snarkjs wtns calculate failed on " + c + ":\n" + text);
            }
            runs[i] = ProveBench.parseTime(text);
        }
        Arrays.sort(runs, (a, b) -> Double.compare(a[0], b[0]));
        return runs[1];
    }

    /** The median of the later half of snarkjs's runs in one node process, in ms. */
    private static double snarkjsWarm(Path snarkjs, Path c, int runs) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("node", "scripts/node/wtns-timing.js",
                c.resolve("circuit.wasm").toString(), c.resolve("input.json").toString(), Integer.toString(runs));
        builder.environment().put("NODE_PATH", snarkjs.toAbsolutePath().getParent().getParent().toString());
        Process p = builder.redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("wtns-timing.js failed on " + c + ":\n" + text);
        }
        JsonNode ms = JsonMapper.shared().readTree(text.substring(text.lastIndexOf('{'))).get("ms");
        double[] all = new double[ms.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = ms.get(i).asDouble();
        }
        return median(Arrays.copyOfRange(all, all.length / 2, all.length));
    }

    /**
     * The child JVM: loads the calculator (graph on or off), computes at least {@code runs} witnesses of the case's
     * input and 5 s of them, writes the last one's values to {@code witness} and prints one RESULT line.
     */
    private static int child(boolean graph, Path c, int runs, Path witness, PrintStream out) throws Exception {
        long t0 = System.nanoTime();
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(c.resolve("circuit.wasm"),
                CalculatorOptions.defaults().withGraph(graph));
        double load = (System.nanoTime() - t0) / 1e6;
        double[] ms = new double[MAX_RUNS];
        CircomWitness last = null;
        long computing = 0;
        int done = 0;
        while (done < MAX_RUNS && (done < runs || computing < WARM_NANOS)) {
            WitnessInput input = WitnessInput.readJson(c.resolve("input.json"));
            long t = System.nanoTime();
            last = calculator.calculate(input);
            long spent = System.nanoTime() - t;
            computing += spent;
            ms[done++] = spent / 1e6;
        }
        Files.write(witness, last.toLittleEndianBytes());
        out.printf("RESULT %.1f %.1f %.3f %d %d %d%n", load, ms[0],
                median(Arrays.copyOfRange(ms, Math.max(1, done / 2), done)), ProveBench.peakRssKb(), last.size(), done);
        return 0;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
