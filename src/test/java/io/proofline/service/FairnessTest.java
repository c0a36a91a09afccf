package io.proofline.service;

import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fairness between tenants with a real service (issue #33): {@code proofline serve} with two API keys and the default
 * limits. Tenant B's one-partition LOW job (a 1,000-constraint circuit) is timed alone ({@link #RUNS} times, the median
 * taken); then tenant A queues {@link #A_JOBS} LOW jobs of {@link #A_PARTITIONS} partitions of snarkjs's mul3 (500
 * partitions, within A's default queue share of half the queue, far more jobs than the job threads of before) and B
 * submits again, as often: B gets no 429, and each of its jobs is done within twice its solo latency, while most of A's
 * backlog still waits. Before, B's job queued behind A's in the
 * durable queue (16 job threads) and behind all of A's partitions in the engine's queue (older jobs first). A's next
 * job, beyond its share, is answered 429 naming {@code queue-share}, while B still gets in.
 *
 * <p>The bound compares two latencies of the same run on the same machine, not a time.
 */
@Tag("slow")
class FairnessTest {

    static final String A = "tenant-a";
    static final String B = "tenant-b";
    static final int A_JOBS = 50;
    static final int A_PARTITIONS = 10;
    static final int RUNS = 3;
    /** The default {@code proofline.tenants.defaults.queue-share} (0.5) of the default queue capacity (1,024). */
    static final int DEFAULT_SHARE = 512;
    static final int CONSTRAINTS = 1000;
    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @Test
    void aTenantBehindAnotherTenantsBacklogIsServedWithinTwiceItsSoloLatency() throws Exception {
        Path circuitDir = DevCircuit.bn128(CONSTRAINTS);
        Path data = Files.createTempDirectory("proofline-fairness");
        Map<String, String> props = Map.of("proofline.store.data-dir", data.toString(),
                "proofline.gpu.enabled", "false", "proofline.console.demo.enabled", "false");
        ServiceProcess.Launch launch = new ServiceProcess.Launch(ServiceProcess.Launch.SERVE.main(), List.of(),
                List.of(A, B));
        try (ServiceProcess service = ServiceProcess.start("fairness", props, launch)) {
            Api a = service.api(A);
            Api b = service.api(B);
            String circuit = b.registerCircuit(Map.of("zkey", Files.readAllBytes(circuitDir.resolve("circuit.zkey"))),
                    Map.of()).get("id").asString();
            String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(circuitDir.resolve("witness.wtns")));
            String aCircuit = a.registerCircuit(Map.of("zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey"))),
                    Map.of()).get("id").asString();
            String aWitness = Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve("witness.wtns")));

            timedJob(b, circuit, witness); // warm-up: the key loaded, the code compiled
            List<Long> solo = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                solo.add(timedJob(b, circuit, witness));
            }

            ExecutorService clients = Executors.newFixedThreadPool(8);
            List<Future<String>> submitted = new ArrayList<>();
            for (int j = 0; j < A_JOBS; j++) {
                submitted.add(clients.submit(() -> {
                    Api.Response r = submit(a, aCircuit, aWitness, A_PARTITIONS);
                    assertThat(r.status()).as(r.body()).isEqualTo(202);
                    return r.json().get("id").asString();
                }));
            }
            List<String> aJobs = new ArrayList<>();
            for (Future<String> f : submitted) {
                aJobs.add(f.get());
            }
            clients.shutdown();

            List<Long> behindBacklog = new ArrayList<>();
            for (int i = 0; i < RUNS; i++) {
                behindBacklog.add(timedJob(b, circuit, witness));
            }
            int aUnfinished = unfinished(a, aJobs);

            Api.Response overShare = submit(a, aCircuit, aWitness, DEFAULT_SHARE);
            int aUnfinishedAtRefusal = unfinished(a, aJobs);
            Api.Response bStillIn = submit(b, circuit, witness, 1);

            long soloMedian = median(solo);
            long slowestBehind = behindBacklog.stream().mapToLong(Long::longValue).max().orElseThrow();
            System.out.printf("fairness: B solo %s ms (median %d), behind A's %d partitions %s ms (slowest %d), "
                            + "ratio %.2f; A's jobs unfinished when B was done: %d of %d%n", solo, soloMedian,
                    A_JOBS * A_PARTITIONS, behindBacklog, slowestBehind, (double) slowestBehind / soloMedian,
                    aUnfinished, A_JOBS);

            // behind the backlog in arrival order, B's first job would have waited for all of it
            assertThat(aUnfinished).as("A's backlog was still there when B's jobs were done")
                    .isGreaterThanOrEqualTo(A_JOBS / 5);
            assertThat(behindBacklog).as("B's latencies behind A's backlog (ms) against twice its solo latency, "
                    + "the median of " + solo).allSatisfy(ms -> assertThat(ms).isLessThanOrEqualTo(2 * soloMedian));
            if (aUnfinishedAtRefusal > 0) {
                assertThat(overShare.status()).as(overShare.body()).isEqualTo(429);
                JsonNode problem = overShare.json();
                assertThat(problem.get("limit").asString()).isEqualTo("queue-share");
                assertThat(problem.get("limitValue").asInt()).isEqualTo(DEFAULT_SHARE);
                assertThat(problem.get("detail").asString()).contains("queue-share");
            }
            assertThat(bStillIn.status()).as(bStillIn.body()).isEqualTo(202);
        }
    }

    /** A 429 for the key's request rate ({@code proofline.security.requests-per-second}), naming the key's header. */
    private static boolean isRateLimited(Api.Response r) {
        return r.status() == 429 && "X-API-Key".equals(r.json().path("field").asString(""));
    }

    /** Submits a LOW job, sent again after a 429 for the key's request rate (not its queue), as a client would. */
    private static Api.Response submit(Api api, String circuit, String witness, int partitions) throws Exception {
        String parts = String.join(",", Collections.nCopies(partitions, "{\"witness\":\"" + witness + "\"}"));
        String body = "{\"circuitId\":\"%s\",\"priority\":\"LOW\",\"partitions\":[%s]}".formatted(circuit, parts);
        Api.Response r = api.postJson("/api/v1/jobs", body);
        while (isRateLimited(r)) {
            Thread.sleep(1000);
            r = api.postJson("/api/v1/jobs", body);
        }
        return r;
    }

    /** GET, sent again after a 429 for the key's request rate. */
    private static Api.Response get(Api api, String path) throws Exception {
        Api.Response r = api.get(path);
        while (isRateLimited(r)) {
            Thread.sleep(1000);
            r = api.get(path);
        }
        return r;
    }

    /** Submits a one-partition LOW job and waits for it: milliseconds from the submission to its end, DONE. */
    private static long timedJob(Api api, String circuit, String witness) throws Exception {
        long start = System.nanoTime();
        Api.Response r = submit(api, circuit, witness, 1);
        assertThat(r.status()).as(r.body()).isEqualTo(202);
        String id = r.json().get("id").asString();
        JsonNode job;
        do {
            job = get(api, "/api/v1/jobs/" + id + "?waitSeconds=30").json();
        } while (!List.of("DONE", "FAILED", "CANCELLED").contains(job.get("status").asString()));
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        return millis;
    }

    private static int unfinished(Api api, List<String> jobs) throws Exception {
        int n = 0;
        for (String id : jobs) {
            String status = get(api, "/api/v1/jobs/" + id).json().get("status").asString();
            n += status.equals("QUEUED") || status.equals("RUNNING") ? 1 : 0;
        }
        return n;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
