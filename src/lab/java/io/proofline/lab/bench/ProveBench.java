package io.proofline.lab.bench;

import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.cli.UsageException;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.format.ZkeyWriter;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.Groth16Verifier;

import java.io.File;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bench prove [--curve bn128] [--log-sizes 14,16,18] [--fixture DIR]... [--runs 3] [--snarkjs PATH]
 * [--work DIR]}: our CPU prover against {@code snarkjs groth16 prove} on the same zkey and witness, in one run.
 *
 * <p>For each case (dev circuits of 2^k constraints, made once and cached under {@code --work}, plus real-circuit
 * fixtures) a fresh JVM proves {@code runs} times: the first, cold, run and the median of the warm ones, with the
 * peak RSS from {@code /proc/self/status} (VmHWM) at the end. snarkjs runs under {@code /usr/bin/time -v} for its
 * wall time and maximum RSS. Ratios are snarkjs / ours.
 */
final class ProveBench implements BenchSuite {

    @Override
    public String name() {
        return "prove";
    }

    @Override
    public String description() {
        return "CPU prove vs snarkjs groth16 prove (time, peak RSS) [--curve C] [--log-sizes 14,16,18] "
                + "[--fixture DIR]... [--runs N] [--snarkjs PATH] [--work DIR]";
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            return child(Path.of(args[1]), Path.of(args[2]), Integer.parseInt(args[3]), out);
        }
        SnarkCurve curve = SnarkCurves.BN128;
        int[] logSizes = {14, 16, 18};
        List<Path> fixtures = new ArrayList<>();
        int runs = 3;
        Path snarkjs = Path.of(".fixtures/node_modules/.bin/snarkjs");
        Path work = Path.of("target/bench-prove");
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            if (v == null) {
                throw new UsageException("bench prove: " + args[i] + " needs a value");
            }
            switch (args[i++]) {
                case "--curve" -> curve = SnarkCurves.byName(v)
                        .orElseThrow(() -> new UsageException("unknown curve " + v));
                case "--log-sizes" -> logSizes = v.isEmpty() ? new int[0]
                        : Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--fixture" -> fixtures.add(Path.of(v));
                case "--runs" -> runs = Integer.parseInt(v);
                case "--snarkjs" -> snarkjs = Path.of(v);
                case "--work" -> work = Path.of(v);
                default -> throw new UsageException("bench prove: unknown option " + args[i - 1]);
            }
        }
        boolean haveSnarkjs = Files.isExecutable(snarkjs) && Files.isExecutable(Path.of("/usr/bin/time"));
        out.println("# bench prove: " + AlgebraBench.machine());
        out.println("# batch-affine additions (G1, G2) on Vector API lanes: bn254 "
                + io.proofline.algebra.curve.Msm.usesVectorLanes(Bn254Curves.G1) + ", bls12381 "
                + io.proofline.algebra.curve.Msm.usesVectorLanes(Bls12381Curves.G1));
        out.println("# ours: fresh JVM per case, " + runs + " proofs (cold = first, warm = median of the rest);"
                + " snarkjs: " + (haveSnarkjs ? snarkjs : "NOT AVAILABLE") + " under /usr/bin/time -v");
        List<String> header = List.of("case", "domain", "ours cold s", "ours warm s",
                "ours warm: load / synth / start / finish s", "ours peak RSS MiB", "snarkjs s", "snarkjs peak RSS MiB",
                "speed-up warm", "speed-up warm, key loaded", "speed-up cold", "RSS snarkjs/ours");
        List<List<String>> rows = new ArrayList<>();
        List<Case> cases = new ArrayList<>();
        for (int k : logSizes) {
            cases.add(devCircuit(curve, k, work, out));
        }
        for (Path f : fixtures) {
            cases.add(new Case(f.getParent().getFileName() + "/" + f.getFileName(), f.resolve("circuit.zkey"),
                    f.resolve("witness.wtns")));
        }
        for (Case c : cases) {
            Map<String, String> ours = runChild(c, runs);
            double cold = Double.parseDouble(ours.get("cold_ms")) / 1000;
            double warm = Double.parseDouble(ours.get("warm_ms")) / 1000;
            double rss = Double.parseDouble(ours.get("hwm_kb")) / 1024;
            double load = Double.parseDouble(ours.get("load_ms")) / 1000;
            String phases = String.format("%.2f / %.2f / %.2f / %.2f", load,
                    Double.parseDouble(ours.get("synth_ms")) / 1000, Double.parseDouble(ours.get("start_ms")) / 1000,
                    Double.parseDouble(ours.get("finish_ms")) / 1000);
            List<String> row = new ArrayList<>(List.of(c.name, "2^" + ours.get("domain_log"), fmt(cold), fmt(warm),
                    phases, String.format("%.0f", rss)));
            if (haveSnarkjs) {
                double[] s = runSnarkjs(snarkjs, c, work);
                row.addAll(List.of(fmt(s[0]), String.format("%.0f", s[1] / 1024), String.format("%.1f×", s[0] / warm),
                        String.format("%.1f×", s[0] / (warm - load)), String.format("%.1f×", s[0] / cold),
                        String.format("%.2f", (s[1] / 1024) / rss)));
            } else {
                row.addAll(List.of("-", "-", "-", "-", "-", "-"));
            }
            rows.add(row);
            out.println("# done: " + String.join(" | ", row));
        }
        out.println();
        printTable(out, header, rows);
        return 0;
    }

    private record Case(String name, Path zkey, Path wtns) {
    }

    private static String fmt(double seconds) {
        return String.format(seconds < 10 ? "%.2f" : "%.1f", seconds);
    }

    /** A dev circuit of 2^k constraints, generated once into {@code work/<curve>-<k>/}. */
    private static Case devCircuit(SnarkCurve curve, int k, Path work, PrintStream out) throws Exception {
        Path dir = work.resolve(curve.name() + "-" + k);
        Path zkey = dir.resolve("circuit.zkey");
        Path wtns = dir.resolve("witness.wtns");
        if (!Files.exists(zkey) || !Files.exists(wtns)) {
            Files.createDirectories(dir);
            long t0 = System.nanoTime();
            try (DevSetup.Result r = DevSetup.generate(curve, 1 << k, 2, k)) {
                ZkeyWriter.write(r.key(), zkey);
                WtnsWriter.write(r.witness(), wtns);
            }
            out.printf("# INSECURE dev circuit %s 2^%d generated in %.1f s -> %s%n", curve, k,
                    (System.nanoTime() - t0) / 1e9, dir);
        }
        return new Case("dev " + curve + " 2^" + k, zkey, wtns);
    }

    private static Map<String, String> runChild(Case c, int runs) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classPath = System.getProperty("java.class.path");
        // Started from the executable jar (bin/proofline, java -jar) the classes sit inside it under Spring Boot's
        // loader: the child starts the same way; from a class path (an IDE, Maven) it names the main class.
        List<String> start = classPath.endsWith(".jar") && !classPath.contains(File.pathSeparator)
                ? List.of("-jar", classPath) : List.of("-cp", classPath, "io.proofline.Proofline");
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC"));
        // the child proves as this JVM would: on Vector API lanes where this JVM resolves the module (issue #3)
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            cmd.addAll(List.of("--add-modules", "jdk.incubator.vector"));
        }
        cmd.addAll(start);
        cmd.addAll(List.of("bench", "prove", "--child", c.zkey.toString(), c.wtns.toString(), Integer.toString(runs)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException("prover child failed on " + c.name + ":\n" + text);
        }
        Map<String, String> r = new TreeMap<>();
        Matcher m = Pattern.compile("(\\w+)=([\\d.]+)").matcher(text.lines().filter(l -> l.startsWith("RESULT"))
                .findFirst().orElseThrow(() -> new IllegalStateException("no RESULT from child:\n" + text)));
        while (m.find()) {
            r.put(m.group(1), m.group(2));
        }
        return r;
    }

    /** {wall seconds, max RSS KiB} of {@code snarkjs groth16 prove} under /usr/bin/time -v. */
    private static double[] runSnarkjs(Path snarkjs, Case c, Path work) throws Exception {
        Path proof = work.resolve("snarkjs-proof.json");
        Path pub = work.resolve("snarkjs-public.json");
        Process p = new ProcessBuilder("/usr/bin/time", "-v", snarkjs.toString(), "groth16", "prove",
                c.zkey.toString(), c.wtns.toString(), proof.toString(), pub.toString())
                .redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException("snarkjs failed on " + c.name + ":\n" + text);
        }
        return parseTime(text);
    }

    /** {wall seconds, max RSS KiB} from the report of {@code /usr/bin/time -v}. */
    static double[] parseTime(String text) {
        Matcher wall = Pattern.compile("Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\): (?:(\\d+):)?(\\d+):([\\d.]+)")
                .matcher(text);
        Matcher rss = Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)").matcher(text);
        if (!wall.find() || !rss.find()) {
            throw new IllegalStateException("cannot parse /usr/bin/time output:\n" + text);
        }
        double seconds = (wall.group(1) == null ? 0 : Integer.parseInt(wall.group(1)) * 3600)
                + Integer.parseInt(wall.group(2)) * 60 + Double.parseDouble(wall.group(3));
        return new double[] {seconds, Double.parseDouble(rss.group(1))};
    }

    /**
     * The child JVM: the whole prove as the CLI does it (map the key, read the witness, synthesize, start, finish),
     * {@code runs} times; prints one RESULT line.
     */
    private static int child(Path zkey, Path wtns, int runs, PrintStream out) throws Exception {
        CpuProverBackend backend = new CpuProverBackend();
        double[] total = new double[runs];
        double[][] phases = new double[runs][];
        int domainLog = 0;
        for (int run = 0; run < runs; run++) {
            long t0 = System.nanoTime();
            try (ProvingKey key = ZkeyReader.read(zkey, PointCheck.CURVE);
                 Witness w = WtnsReader.read(wtns, key)) {
                long t1 = System.nanoTime();
                PendingProof pending;
                long t2;
                try (Arena arena = Arena.ofShared()) {
                    Synthesized abc = Synthesis.evaluate(key, w, bytes -> arena.allocate(bytes, 8));
                    t2 = System.nanoTime();
                    pending = backend.proveStart(key, w, AbcSource.host(abc));
                }
                long t3 = System.nanoTime();
                Proof proof = backend.proveFinish(pending);
                long t4 = System.nanoTime();
                total[run] = (t4 - t0) / 1e6;
                phases[run] = new double[] {total[run], (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6,
                        (t4 - t3) / 1e6};
                domainLog = Integer.numberOfTrailingZeros(key.domainSize());
                if (run == 0 && !Groth16Verifier.verify(VerifyingKey.of(key), w.publicSignals(key.nPublic()), proof)
                        .valid()) {
                    throw new IllegalStateException("proof does not verify");
                }
            }
        }
        // the warm run with the median total, with its phases
        double[][] warm = Arrays.copyOfRange(phases, Math.min(1, runs - 1), runs);
        Arrays.sort(warm, (x, y) -> Double.compare(x[0], y[0]));
        double[] median = warm[warm.length / 2];
        out.printf("RESULT cold_ms=%.1f warm_ms=%.1f load_ms=%.1f synth_ms=%.1f start_ms=%.1f finish_ms=%.1f "
                        + "hwm_kb=%d domain_log=%d%n", total[0], median[0], median[1], median[2], median[3], median[4],
                peakRssKb(), domainLog);
        return 0;
    }

    /** VmHWM of this process in KiB (0 where /proc is missing). */
    static long peakRssKb() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("\\D", ""));
                }
            }
        } catch (Exception ignored) {
            // not Linux
        }
        return 0;
    }

    private static void printTable(PrintStream out, List<String> header, List<List<String>> rows) {
        out.println("| " + String.join(" | ", header) + " |");
        out.println("|" + "---|".repeat(header.size()));
        for (List<String> r : rows) {
            out.println("| " + String.join(" | ", r) + " |");
        }
    }
}
