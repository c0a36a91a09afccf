package io.proofline.deploy;

import io.proofline.algebra.bn254.Bn254;
import io.proofline.cli.Cli;
import io.proofline.web.Api;
import io.proofline.witness.HostileWasm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The heap test of issue 32, against the service as a user runs it ({@link ServedAsUser}: {@code
 * PROOFLINE_MEMORY_LIMIT=2GB bin/proofline serve}, a 512 MiB heap, default settings): 2,000 jobs fail, each after its
 * wasm printed the most log a computation may (1 MB, {@code proofline.witness.max-log}), and 200 jobs of a circuit
 * with 10,000 public signals prove (about 800 KB of public signals each). While the engine kept the last 10,000
 * finished jobs whole, every failure's log and every proof stayed reachable: the failures' logs alone come to about
 * 2 GB, four times the heap. Now, after a forced collection, the heap in use (the service's own
 * {@code proofline_heap_after_gc_bytes}) is within its declared figures: the max heap less the witness calculators'
 * share, and what the engine keeps of finished jobs within its own figure. The process is the same one throughout,
 * its RSS within the limit, and the proofs are still served (streamed from the store).
 */
@Tag("slow")
class FinishedJobsHeapTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    private static final int MUL3_VARIABLES = 6;
    private static final int FAILED_JOBS = 2_000;
    private static final int WIDE_JOBS = 200;
    private static final int PUBLIC_SIGNALS = 10_000;
    private static final long LIMIT = 2_000_000_000L;

    @Test
    void failuresWithTheirMostLogAndProofsOfTenThousandPublicSignalsStayWithinTheHeapsFigures(@TempDir Path dir)
            throws Exception {
        Path wide = wideCircuit(dir.resolve("wide"));
        try (ServedAsUser service = ServedAsUser.start(dir, "2GB")) {
            long pid = service.pid();
            Api api = service.api();
            String flooding = api.registerCircuit(Map.of("zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey")),
                    "wasm", HostileWasm.printsItsMostLogThenFails(Bn254.FR.modulus(), MUL3_VARIABLES)),
                    Map.of("name", "floods-its-log")).get("id").asString();
            String wideId = api.registerCircuit(Map.of("zkey", Files.readAllBytes(wide.resolve("circuit.zkey"))),
                    Map.of("name", "ten-thousand-public")).get("id").asString();

            String failing = "{\"circuitId\":\"" + flooding + "\",\"partitions\":[{\"input\":{}}]}";
            String proving = "{\"circuitId\":\"" + wideId + "\",\"partitions\":[{\"witness\":\""
                    + Base64.getEncoder().encodeToString(Files.readAllBytes(wide.resolve("witness.wtns"))) + "\"}]}";
            List<String> wideJobs = new ArrayList<>();
            String lastFailed = null;
            double peakAfterGc = 0;
            long lastSample = 0;
            for (int i = 0; i < FAILED_JOBS + WIDE_JOBS; i++) {
                // the wide jobs go in among the failing ones, so that both kinds finish side by side
                boolean wideJob = i % ((FAILED_JOBS + WIDE_JOBS) / WIDE_JOBS) == 0 && wideJobs.size() < WIDE_JOBS;
                String id = submit(api, wideJob ? proving : failing);
                if (wideJob) {
                    wideJobs.add(id);
                } else {
                    lastFailed = id;
                }
                if (System.nanoTime() - lastSample > 5_000_000_000L) {
                    peakAfterGc = Math.max(peakAfterGc, heapAfterGc(service));
                    lastSample = System.nanoTime();
                }
            }
            long end = System.nanoTime() + Duration.ofMinutes(40).toNanos();
            while (unfinished(api) > 0) {
                assertThat(System.nanoTime()).as("all jobs finished within 40 minutes").isLessThan(end);
                assertThat(service.isAlive()).as("the service died: %s", tail(service)).isTrue();
                peakAfterGc = Math.max(peakAfterGc, heapAfterGc(service));
                Thread.sleep(2_000);
            }

            JsonNode failed = api.get("/api/v1/jobs/" + lastFailed).json();
            assertThat(failed.get("status").asString()).isEqualTo("FAILED");
            assertThat(failed.toString()).contains("passed the limit of 1048576 characters");
            assertThat(wideJobs).hasSize(WIDE_JOBS);
            assertThat(count(api, "FAILED")).isEqualTo(FAILED_JOBS);
            assertThat(count(api, "DONE")).isEqualTo(WIDE_JOBS);
            JsonNode proofs = Api.JSON.readTree(api.get("/api/v1/jobs/" + wideJobs.getLast() + "/proof").body());
            assertThat(proofs.get("proofs").get(0).get("publicSignals").size()).isEqualTo(PUBLIC_SIGNALS);

            service.forceGc();
            String metrics = service.prometheus();
            double afterGc = ServedAsUser.sample(metrics, "proofline_heap_after_gc_bytes", "");
            double maxHeap = ServedAsUser.sample(metrics, "proofline_heap_max_bytes", "");
            double heapFigure = ServedAsUser.sample(metrics, "proofline_memory_fixed_figure_bytes", "figure=\"heap\"");
            double finishedFigure = ServedAsUser.sample(metrics, "proofline_memory_fixed_figure_bytes",
                    "figure=\"finished_jobs\"");
            double finishedKept = ServedAsUser.sample(metrics, "proofline_finished_jobs_bytes", "");
            System.out.printf("heap after GC %.1f MiB (peak seen during the run %.1f MiB) of max heap %.1f MiB; "
                            + "declared: heap %.1f MiB + finished jobs %.1f MiB (kept %.1f MiB); RSS peak %.1f MiB%n",
                    afterGc / (1 << 20), peakAfterGc / (1 << 20), maxHeap / (1 << 20), heapFigure / (1 << 20),
                    finishedFigure / (1 << 20), finishedKept / (1 << 20), service.rssPeakBytes() / (double) (1 << 20));

            assertThat(maxHeap).as("the heap rule for 2 GB").isEqualTo(512.0 * (1 << 20));
            assertThat(finishedKept).as("what the engine keeps of finished jobs").isLessThanOrEqualTo(finishedFigure);
            assertThat(afterGc).as("heap in use after a full collection, against the heap's declared figures "
                    + "(all but the witness calculators' share)").isLessThanOrEqualTo(heapFigure + finishedFigure);
            assertThat(service.pid()).isEqualTo(pid);
            assertThat(service.isAlive()).isTrue();
            assertThat(service.rssPeakBytes()).as("RSS high-water mark").isLessThan(LIMIT);
            assertThat(api.get("/actuator/health").json().get("status").asString()).isEqualTo("UP");
        }
    }

    /** A dev circuit of 64 constraints and 10,000 public signals (one output, 9,999 public inputs). */
    private static Path wideCircuit(Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"dev-circuit", "--curve", "bn128", "--constraints", "64", "--public",
                Integer.toString(PUBLIC_SIGNALS), "--seed", "32", "--out", dir.toString()},
                new PrintStream(out), new PrintStream(out));
        assertThat(rc).as(out.toString()).isZero();
        return dir;
    }

    /** Submits, waiting out 429s as a client does (the queue and the rate limit at their defaults). */
    private static String submit(Api api, String body) throws Exception {
        while (true) {
            Api.Response r = api.postJson("/api/v1/jobs", body);
            if (r.status() == 202) {
                return r.json().get("id").asString();
            }
            assertThat(r.status()).as(r.body()).isEqualTo(429);
            long seconds = r.headers().firstValueAsLong("Retry-After").orElse(1);
            Thread.sleep(Math.min(seconds, 2) * 1000);
        }
    }

    private static long unfinished(Api api) throws Exception {
        return count(api, "QUEUED") + count(api, "RUNNING");
    }

    private static long count(Api api, String status) throws Exception {
        return api.get("/api/v1/jobs?status=" + status + "&size=1").json().get("total").asLong();
    }

    private static double heapAfterGc(ServedAsUser service) throws Exception {
        return ServedAsUser.sample(service.prometheus(), "proofline_heap_after_gc_bytes", "");
    }

    private static String tail(ServedAsUser service) throws Exception {
        String log = service.log();
        return log.substring(Math.max(0, log.length() - 5_000));
    }
}
