package io.proofline.service;

import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bounded load test on loopback, outside the default run:
 * {@code mvn test -Dtest=ServiceLoadTest -Dproofline.load=true [-Dload.jobs=200 -Dload.clients=16]}.
 * A child service gets {@code jobs} jobs from {@code clients} concurrent clients: three circuits (mul3 on both curves,
 * a 1000-constraint dev circuit), 1–4 partitions, random priorities, ~10 % cancelled right after submission, ~10 %
 * submitted twice with the same requestId. Checks: no 5xx, no job lost or duplicated, every proof verifies; prints
 * p50/p99 submit-to-DONE latency and the service's peak RSS (VmHWM) for docs/BENCHMARKS.md.
 */
@Tag("slow")
@EnabledIfSystemProperty(named = "proofline.load", matches = "true")
class ServiceLoadTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");

    record Circuit(String id, String witnessBase64, VerifyingKey vk) {
    }

    @Test
    void jobsUnderConcurrentLoadAreNeitherLostNorDuplicatedAndAllVerify() throws Exception {
        int jobs = Integer.getInteger("load.jobs", 200);
        int clients = Integer.getInteger("load.clients", 16);
        long seed = Long.getLong("load.seed", 42);
        Path dev = DevCircuit.bn128(1000);
        Path data = Files.createTempDirectory("proofline-load");
        try (ServiceProcess service = ServiceProcess.start("load", Map.of("proofline.store.data-dir", data.toString(),
                "proofline.security.requests-per-second", "100000", "proofline.store.polling-interval", "100ms",
                "proofline.pipeline.job-threads", "16", "proofline.memory.budget", "1GB"))) {
            Api api = service.api();
            List<Circuit> circuits = new ArrayList<>();
            for (Path dir : List.of(MUL3.resolve("bn128"), MUL3.resolve("bls12381"), dev)) {
                JsonNode c = api.postMultipart("/api/v1/circuits", Map.of("zkey",
                        Files.readAllBytes(dir.resolve("circuit.zkey"))), Map.of()).json();
                circuits.add(new Circuit(c.get("id").asString(),
                        Base64.getEncoder().encodeToString(Files.readAllBytes(dir.resolve("witness.wtns"))),
                        VerificationKeyJson.read(dir.resolve("verification_key.json"))));
            }
            Map<String, Integer> partitionsOf = new ConcurrentHashMap<>();
            Map<String, Circuit> circuitOf = new ConcurrentHashMap<>();
            Set<String> cancelled = ConcurrentHashMap.newKeySet();
            List<Long> latenciesMs = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger serverErrors = new AtomicInteger();
            AtomicInteger next = new AtomicInteger();
            long start = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                done.add(pool.submit(() -> {
                    for (int i; (i = next.getAndIncrement()) < jobs; ) {
                        SplittableRandom random = new SplittableRandom(seed + i);
                        Circuit circuit = circuits.get(random.nextInt(circuits.size()));
                        int n = 1 + random.nextInt(4);
                        String priority = List.of("LOW", "NORMAL", "HIGH", "CRITICAL").get(random.nextInt(4));
                        String body = "{\"circuitId\":\"%s\",\"priority\":\"%s\",\"requestId\":\"load-%d-%d\",\"partitions\":[%s]}"
                                .formatted(circuit.id(), priority, seed, i,
                                        String.join(",", Collections.nCopies(n, "{\"witness\":\"" + circuit.witnessBase64() + "\"}")));
                        long t0 = System.nanoTime();
                        Api.Response r = api.postJson("/api/v1/jobs", body);
                        if (r.status() >= 500) {
                            serverErrors.incrementAndGet();
                            continue;
                        }
                        while (r.status() == 429) {
                            Thread.sleep(500);
                            r = api.postJson("/api/v1/jobs", body);
                        }
                        assertThat(r.status()).as(r.body()).isIn(200, 202);
                        String id = r.json().get("id").asString();
                        if (random.nextInt(10) == 0) {
                            Api.Response again = api.postJson("/api/v1/jobs", body);
                            assertThat(again.json().get("id").asString()).isEqualTo(id);
                        }
                        partitionsOf.put(id, n);
                        circuitOf.put(id, circuit);
                        if (random.nextInt(10) == 0) {
                            Api.Response cancel = api.delete("/api/v1/jobs/" + id);
                            if (cancel.status() >= 500) {
                                serverErrors.incrementAndGet();
                            }
                            cancelled.add(id);
                        }
                        JsonNode job = api.awaitJob(id, Duration.ofMinutes(10));
                        if (job.get("status").asString().equals("DONE")) {
                            latenciesMs.add((System.nanoTime() - t0) / 1_000_000);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            long wallMs = (System.nanoTime() - start) / 1_000_000;

            Set<String> listed = new HashSet<>();
            int listedRows = 0;
            for (int page = 0; ; page++) {
                JsonNode p = api.get("/api/v1/jobs?size=500&page=" + page).json();
                for (JsonNode j : p.get("jobs")) {
                    listed.add(j.get("id").asString());
                    listedRows++;
                }
                if (p.get("jobs").isEmpty()) {
                    break;
                }
            }
            assertThat(serverErrors.get()).as("5xx answers").isZero();
            assertThat(partitionsOf).as("jobs accepted").hasSize(jobs);
            assertThat(listedRows).as("no duplicated job").isEqualTo(listed.size()).isEqualTo(jobs);
            assertThat(listed).as("no lost job").isEqualTo(partitionsOf.keySet());
            int doneJobs = 0;
            int proofs = 0;
            for (var e : partitionsOf.entrySet()) {
                JsonNode job = api.get("/api/v1/jobs/" + e.getKey()).json();
                String status = job.get("status").asString();
                if (!cancelled.contains(e.getKey())) {
                    assertThat(status).as(job.toString()).isEqualTo("DONE");
                }
                if (status.equals("DONE")) {
                    doneJobs++;
                    JsonNode ps = api.get("/api/v1/jobs/" + e.getKey() + "/proof").json().get("proofs");
                    assertThat(ps).hasSize(e.getValue());
                    for (JsonNode p : ps) {
                        assertThat(Groth16Verifier.verify(circuitOf.get(e.getKey()).vk(),
                                PublicSignalsJson.parse(p.get("publicSignals").toString(), "p"),
                                ProofJson.parse(p.get("proof").toString(), "p")).valid()).isTrue();
                        proofs++;
                    }
                } else {
                    assertThat(status).isEqualTo("CANCELLED");
                }
            }
            List<Long> sorted = new ArrayList<>(latenciesMs);
            Collections.sort(sorted);
            long p50 = sorted.get(sorted.size() / 2);
            long p99 = sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
            String hwm = Files.readAllLines(Path.of("/proc/" + service.pid() + "/status")).stream()
                    .filter(l -> l.startsWith("VmHWM")).findFirst().orElse("VmHWM: ?");
            System.out.printf("LOAD RESULT: %d jobs (%d DONE, %d cancelled), %d proofs verified, %d clients, wall %d ms, "
                            + "submit-to-DONE p50 %d ms, p99 %d ms, service peak RSS %s, 5xx %d%n", jobs, doneJobs,
                    jobs - doneJobs, proofs, clients, wallMs, p50, p99, hwm.replaceAll("\\s+", " "), serverErrors.get());
        }
    }
}
