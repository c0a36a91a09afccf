package io.proofline.lab.bench;

import io.proofline.cli.Options;
import io.proofline.cli.UsageException;
import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.format.ZkeyWriter;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bench http}: drives a running service through its REST API as users do, with N concurrent clients (closed
 * loop: each submits a job, waits until its proofs can be fetched, fetches them, submits the next), for capacity
 * planning and for the service's submit → proof latency. It registers a dev circuit (an INSECURE known-secret setup,
 * as {@code dev-circuit} makes) or takes a registered one's id, submits witness jobs (multipart) or input jobs (JSON)
 * of P partitions, verifies a sample of the proofs here against the circuit's verification key, and prints p50/p95/p99
 * latency, proofs/s, and the service's peak RSS and device busy fraction read from {@code /api/v1/pipeline}.
 *
 * <p>Each client waits for its job with {@code GET /api/v1/jobs/{id}?waitSeconds=N}, which answers as soon as the
 * job has ended: no polling interval adds to the latency, and the waits stay within the service's request rate.
 */
final class HttpBench implements BenchSuite {

    private static final String DEFAULT_URL = "http://127.0.0.1:8080";
    /** One wait's length; a job that runs longer is waited for again. */
    static final int WAIT_SECONDS = 30;

    @Override
    public String name() {
        return "http";
    }

    @Override
    public String description() {
        return "a running service over HTTP: --api-key K [--url " + DEFAULT_URL + "] [--clients 1,16] [--jobs N]"
                + " [--partitions P] [--circuit ID (--witness F | --input F) | --curve bn128 --log-constraints 14]"
                + " [--warmup 2] [--verify-sample 4]";
    }

    /** What one job saw: its latency, the server's timings, the proofs' JSON. */
    /**
     * One job as its client saw it: {@code submitNanos} the submit call, {@code latencyNanos} submit to proofs
     * fetched, {@code fetchedAt} the wall-clock instant the proofs were in hand (to split the latency with the job's
     * own timestamps; client and service share a clock when run on one host).
     */
    record Completed(long latencyNanos, long submitNanos, Instant fetchedAt, JsonNode job, JsonNode proofs) {
    }

    /** The circuit driven and what a job of it carries. */
    record Workload(String circuitId, String label, PreparedVerifyingKey vk, List<byte[]> witnesses,
                            List<JsonNode> inputs) {
        int partitions() {
            return witnesses != null ? witnesses.size() : inputs.size();
        }
    }

    @Override
    public int run(String[] args, PrintStream out) throws Exception {
        Map<String, String> opts = Options.parse(args, "--url", "--api-key", "--clients", "--jobs", "--partitions",
                "--circuit", "--witness", "--input", "--curve", "--log-constraints", "--seed", "--warmup",
                "--verify-sample");
        URI url = URI.create(opts.getOrDefault("--url", DEFAULT_URL));
        String apiKey = Options.require(opts, "--api-key");
        List<Integer> clients = Options.intList(opts, "--clients", List.of(1, 4));
        int partitions = Options.intValue(opts, "--partitions", 1);
        int warmup = Options.intValue(opts, "--warmup", 2);
        int verifySample = Options.intValue(opts, "--verify-sample", 4);
        if (partitions < 1 || warmup < 0 || verifySample < 0 || clients.stream().anyMatch(c -> c < 1)) {
            throw new UsageException("--clients and --partitions must be positive; --warmup and --verify-sample not "
                    + "negative");
        }

        try (ServiceClient client = new ServiceClient(url, apiKey)) {
            Workload workload = workload(client, opts, partitions, out);
            out.printf("bench http: %s, circuit %s, %d partition(s) per job, %s jobs%n", url, workload.label(),
                    partitions, workload.witnesses() != null ? "witness (multipart)" : "input (JSON)");
            List<Completed> warm = closedLoop(client, workload, 1, warmup);
            int failures = check(warm, workload, warm.size(), out);

            List<String> rows = new ArrayList<>();
            rows.add(String.format("%-8s %6s %7s %9s %9s %9s %9s %9s %10s %11s %10s %17s %13s %8s %8s %10s  %s",
                    "clients", "jobs", "proofs", "p50 ms", "p95 ms", "p99 ms", "max ms", "proofs/s", "engine ms",
                    "outside ms", "submit ms", "rcv/chk/dur/rows", "start p50/95", "run+ ms", "tail ms", "peak RSS",
                    "device busy"));
            for (int c : clients) {
                int jobs = Options.intValue(opts, "--jobs", Math.max(8, 4 * c));
                PipelineSampler.Figures figures;
                List<Completed> done;
                long wall;
                try (PipelineSampler sampler = new PipelineSampler(client)) {
                    long start = System.nanoTime();
                    done = closedLoop(client, workload, c, jobs);
                    wall = System.nanoTime() - start;
                    figures = sampler.finish();
                }
                out.printf("%d client(s): ", c);
                failures += check(done, workload, verifySample, out);
                rows.add(row(c, done, workload.partitions(), wall, figures));
            }
            out.println();
            rows.forEach(out::println);
            out.println("latency: submit -> proofs fetched, per job; engine ms: the median job's time in the service's "
                    + "engine (its timings.totalMs); outside ms: the median of latency - engine time, split (medians) "
                    + "into submit ms: the submit call (upload, durable write of the inputs, the job's rows), of which "
                    + "rcv/chk/dur/rows: the service's own split (timings.intake: body received and staged, inputs "
                    + "checked, inputs on disk beyond the check, rows written; the rest is connection, headers, commit, "
                    + "answer); start: "
                    + "createdAt -> startedAt (the hand-over from the REST call to a job runner); run+ ms: startedAt -> "
                    + "finishedAt minus the engine time (reading inputs back, the job's writes); tail ms: finishedAt -> "
                    + "proofs fetched (the wait's answer, the fetch); peak RSS: largest sampled VmRSS; device busy: share of "
                    + PipelineSampler.PERIOD.toMillis() + " ms samples with a prove start running");
            return failures == 0 ? 0 : 1;
        }
    }

    private static String row(int clients, List<Completed> done, int partitions, long wallNanos,
                              PipelineSampler.Figures figures) {
        long[] latencies = done.stream().mapToLong(Completed::latencyNanos).sorted().toArray();
        long[] engine = done.stream().mapToLong(d -> engineMillis(d.job())).sorted().toArray();
        long[] outside = done.stream().mapToLong(d -> d.latencyNanos() / 1_000_000 - engineMillis(d.job()))
                .sorted().toArray();
        long[] handOver = done.stream().mapToLong(d -> startMillis(d.job())).sorted().toArray();
        long[] submit = done.stream().mapToLong(d -> d.submitNanos() / 1_000_000).sorted().toArray();
        String intake = String.join("/", java.util.stream.Stream.of("receivedMs", "checkedMs", "durableMs", "rowsMs")
                .map(phase -> String.valueOf(percentile(done.stream().mapToLong(d -> d.job().path("timings")
                        .path("intake").path(phase).asLong(0)).sorted().toArray(), 50))).toList());
        long[] runOverhead = done.stream().mapToLong(d -> runMillis(d.job()) - engineMillis(d.job())).sorted().toArray();
        long[] tail = done.stream().mapToLong(d -> Duration.between(instant(d.job(), "finishedAt"), d.fetchedAt())
                .toMillis()).sorted().toArray();
        double proofsPerSecond = (double) done.size() * partitions / (wallNanos / 1e9);
        return String.format("%-8d %6d %7d %9.1f %9.1f %9.1f %9.1f %9.2f %10d %11d %10d %17s %13s %8d %8d %10s  %s",
                clients,
                done.size(), done.size() * partitions, ms(percentile(latencies, 50)), ms(percentile(latencies, 95)),
                ms(percentile(latencies, 99)), ms(latencies[latencies.length - 1]), proofsPerSecond,
                percentile(engine, 50), percentile(outside, 50), percentile(submit, 50), intake,
                percentile(handOver, 50) + "/" + percentile(handOver, 95), percentile(runOverhead, 50),
                percentile(tail, 50), mib(figures.peakRssBytes()),
                figures.busyText());
    }

    /** {@code jobs} jobs over {@code clients} concurrent clients, each one job at a time. */
    private static List<Completed> closedLoop(ServiceClient client, Workload workload, int clients, int jobs)
            throws Exception {
        AtomicInteger left = new AtomicInteger(jobs);
        List<Completed> done = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                runs.add(pool.submit(() -> {
                    while (left.getAndDecrement() > 0) {
                        done.add(oneJob(client, workload));
                    }
                    return null;
                }));
            }
            for (Future<?> r : runs) {
                r.get();
            }
        }
        return done;
    }

    static Completed oneJob(ServiceClient client, Workload workload)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        String id = workload.witnesses() != null ? client.submitWitnesses(workload.circuitId(), workload.witnesses())
                : client.submitInputs(workload.circuitId(), workload.inputs());
        long submitted = System.nanoTime();
        JsonNode job = client.awaitJob(id, WAIT_SECONDS);
        while (!terminal(job)) {
            job = client.awaitJob(id, WAIT_SECONDS);
        }
        if (!"DONE".equals(job.path("status").asString())) {
            throw new IOException("job " + id + " ended " + job.path("status").asString() + ": "
                    + job.path("error").asString());
        }
        JsonNode proofs = client.proofs(id);
        return new Completed(System.nanoTime() - start, submitted - start, Instant.now(), job, proofs);
    }

    private static boolean terminal(JsonNode job) {
        String status = job.path("status").asString();
        return status.equals("DONE") || status.equals("FAILED") || status.equals("CANCELLED");
    }

    /** Verifies the first {@code sample} jobs' proofs here; answers how many failed (and prints them). */
    private static int check(List<Completed> done, Workload workload, int sample, PrintStream out) throws Exception {
        int failed = 0;
        int verified = 0;
        for (Completed c : done.subList(0, Math.min(sample, done.size()))) {
            JsonNode proofs = c.proofs().path("proofs");
            if (proofs.size() != workload.partitions()) {
                out.printf("job %s: %d proofs for %d partitions%n", c.job().path("id").asString(), proofs.size(),
                        workload.partitions());
                failed++;
                continue;
            }
            for (JsonNode p : proofs) {
                Proof proof = ProofJson.parse(ServiceClient.JSON.writeValueAsString(p.path("proof")), "proof");
                BigInteger[] signals = PublicSignalsJson.parse(
                        ServiceClient.JSON.writeValueAsString(p.path("publicSignals")), "publicSignals");
                var result = Groth16Verifier.verify(workload.vk(), signals, proof);
                verified++;
                if (!result.valid()) {
                    out.printf("job %s: INVALID proof: %s%n", c.job().path("id").asString(), result.reason());
                    failed++;
                }
            }
        }
        out.printf("verified %d proof(s) here against the circuit's verification key: %d invalid%n", verified, failed);
        return failed;
    }

    /** The registered circuit {@code --circuit} names, else a dev circuit made and registered for the run. */
    static Workload workload(ServiceClient client, Map<String, String> opts, int partitions, PrintStream out)
            throws Exception {
        return opts.containsKey("--circuit") ? registered(client, opts, partitions)
                : devCircuit(client, opts, partitions, out);
    }

    private static Workload devCircuit(ServiceClient client, Map<String, String> opts, int partitions,
                                       PrintStream out) throws Exception {
        String curveName = opts.getOrDefault("--curve", "bn128");
        SnarkCurve curve = SnarkCurves.byName(curveName)
                .orElseThrow(() -> new UsageException("unknown curve '" + curveName + "' (bn128 or bls12381)"));
        int log = Options.intValue(opts, "--log-constraints", 14);
        if (log < 2 || log > 26) {
            throw new UsageException("--log-constraints must be 2..26");
        }
        if (opts.containsKey("--witness") || opts.containsKey("--input")) {
            throw new UsageException("--witness and --input go with --circuit");
        }
        // A fixed default seed: the same zkey again registers as the same circuit instead of adding one per run.
        long seed = opts.containsKey("--seed") ? Long.parseLong(opts.get("--seed")) : 1;
        // The setup fills the domain: constraints plus public inputs, so ask for a few fewer than 2^log.
        int constraints = (1 << log) - 4;
        Path dir = Files.createTempDirectory("proofline-bench-http");
        try {
            out.printf("INSECURE development setup: %s, 2^%d domain%n", curve, log);
            VerifyingKey vk;
            byte[] witness;
            try (DevSetup.Result r = DevSetup.generate(curve, constraints, 1, seed)) {
                ZkeyWriter.write(r.key(), dir.resolve("circuit.zkey"));
                WtnsWriter.write(r.witness(), dir.resolve("witness.wtns"));
                vk = VerifyingKey.of(r.key());
                witness = Files.readAllBytes(dir.resolve("witness.wtns"));
            }
            long start = System.nanoTime();
            JsonNode circuit = client.registerCircuit(dir.resolve("circuit.zkey"), "bench-http-" + curve + "-2^" + log);
            String id = circuit.path("id").asString();
            out.printf("registered circuit %s (%d constraints) in %d ms%n", id, circuit.path("constraints").asLong(),
                    (System.nanoTime() - start) / 1_000_000);
            return new Workload(id, curve + " 2^" + log + " (dev)", PreparedVerifyingKey.prepare(vk),
                    Collections.nCopies(partitions, witness), null);
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    private static Workload registered(ServiceClient client, Map<String, String> opts, int partitions)
            throws Exception {
        String id = opts.get("--circuit");
        JsonNode circuit = client.circuit(id);
        VerifyingKey vk = VerificationKeyJson.parse(client.verificationKey(id), "verification key of " + id);
        String label = id + " (" + circuit.path("curve").asString() + ", " + circuit.path("constraints").asLong()
                + " constraints)";
        if (opts.containsKey("--witness") == opts.containsKey("--input")) {
            throw new UsageException("with --circuit, give one of --witness FILE.wtns or --input FILE.json");
        }
        if (opts.containsKey("--witness")) {
            byte[] witness = Files.readAllBytes(Path.of(opts.get("--witness")));
            return new Workload(id, label, PreparedVerifyingKey.prepare(vk), Collections.nCopies(partitions, witness),
                    null);
        }
        JsonNode input = ServiceClient.JSON.readTree(Files.readString(Path.of(opts.get("--input"))));
        return new Workload(id, label, PreparedVerifyingKey.prepare(vk), null, Collections.nCopies(partitions, input));
    }

    /** The job's time in the engine, from its submission there to its result, as the service reports it. */
    private static long engineMillis(JsonNode job) {
        return job.path("timings").path("totalMs").asLong(0);
    }

    private static long startMillis(JsonNode job) {
        return Duration.between(instant(job, "createdAt"), instant(job, "startedAt")).toMillis();
    }

    /** The job's run on an instance, from taking it to storing its outcome. */
    private static long runMillis(JsonNode job) {
        return Duration.between(instant(job, "startedAt"), instant(job, "finishedAt")).toMillis();
    }

    private static Instant instant(JsonNode job, String field) {
        return Instant.parse(job.path(field).asString());
    }

    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static String mib(long bytes) {
        return bytes <= 0 ? "-" : (bytes >> 20) + " MiB";
    }

}
