package io.proofline.service;

import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chaos with real processes (issue #33, "a 202 means DONE"): two service instances on one PostgreSQL schema and one
 * data directory, kept alive as an orchestrator would ({@link Supervised}); three tenants (API keys) submit
 * {@link #JOBS} jobs, among them one poison job whose synthesis halts its JVM ({@link PoisonedServiceMain}). One
 * instance is SIGKILLed a few seconds after each start, again and again; the other is SIGTERMed once mid-run; both are
 * restarted whenever they die (the poison kills either). Every other job ends DONE exactly once (one "DONE" in all the
 * instances' logs) with proofs that verify; the poison job is quarantined; no innocent job is FAILED. Submissions are
 * idempotent ({@code requestId}), so a submission whose answer a kill cut off is sent again, as a client would.
 */
@Tag("slow")
class ChaosTest {

    static final int JOBS = 120;
    static final List<String> TENANTS = List.of("tenant-a", "tenant-b", "tenant-c");
    /** The poison job is tenant-a's submission of this index. */
    static final int POISON_INDEX = 8;
    static final long SEED = 33;
    /** Each tenant submits in this many waves; the killed instance dies between two waves, so at least WAVES - 1. */
    static final int WAVES = 4;
    static final Duration TIMEOUT = Duration.ofMinutes(15);
    /** The innocent jobs' circuit: snarkjs's mul3, a proof in milliseconds, so that the test's time is the chaos's. */
    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    private static final Pattern CHARGED = Pattern.compile("job ([0-9a-f-]{36}): its instance died while it ran alone");

    /** One submitted job: its tenant, its id, how many partitions, and whether it is the poison one. */
    record Submitted(String tenant, String id, int partitions, boolean poison) {
    }

    @Test
    void everyInnocentJobIsDoneExactlyOnceThePoisonJobIsQuarantinedAndNoneFailed() throws Exception {
        long started = System.nanoTime();
        Path circuitDir = MUL3;
        Path poisonDir = DevCircuit.bn128(16);
        String poisonCircuit = CircuitIds.of(poisonDir.resolve("circuit.zkey"));
        Path data = Files.createTempDirectory("proofline-chaos");
        try (TestPostgres.Schema schema = TestPostgres.newSchema()) {
            Map<String, String> props = new HashMap<>(Map.of("proofline.store.data-dir", data.toString(),
                    "spring.datasource.url", schema.url(), "spring.datasource.username", schema.user(),
                    "spring.datasource.password", schema.password(),
                    "proofline.store.heartbeat-interval", "1s", "proofline.store.missed-heartbeats", "4",
                    "proofline.store.polling-interval", "300ms", "proofline.gpu.enabled", "false",
                    "proofline.console.demo.enabled", "false"));
            ServiceProcess.Launch launch = ServiceProcess.Launch.poisoned(poisonCircuit, TENANTS);
            Chaos chaos = new Chaos();
            try (Supervised killed = new Supervised("chaos-killed", props, launch);
                 Supervised terminated = new Supervised("chaos-terminated", props, launch)) {
                List<Supervised> instances = List.of(killed, terminated);
                String circuit = registerForEveryTenant(terminated.awaitUp(Duration.ofMinutes(4)), circuitDir);
                assertThat(terminated.up().api(TENANTS.getFirst()).registerCircuit(Map.of("zkey",
                        Files.readAllBytes(poisonDir.resolve("circuit.zkey"))), Map.of()).get("id").asString())
                        .isEqualTo(poisonCircuit);

                ExecutorService threads = Executors.newFixedThreadPool(TENANTS.size() + 1);
                List<Submitted> jobs = new CopyOnWriteArrayList<>();
                List<Future<?>> submitting = new ArrayList<>();
                for (String tenant : TENANTS) {
                    submitting.add(threads.submit(() -> submitAll(instances, tenant, circuit, circuitDir,
                            poisonCircuit, poisonDir, jobs, chaos)));
                }
                Future<?> killing = threads.submit(() -> chaos.killAgainAndAgain(killed));
                for (Future<?> f : submitting) {
                    f.get(TIMEOUT.toMinutes(), TimeUnit.MINUTES);
                }
                assertThat(jobs).hasSize(JOBS);
                Map<String, String> ended = awaitAllEnded(instances, jobs, chaos, terminated);
                chaos.stop();
                killing.get(1, TimeUnit.MINUTES);
                threads.shutdownNow();

                Submitted poison = jobs.stream().filter(Submitted::poison).findFirst().orElseThrow();
                JsonNode quarantined = api(instances, poison.tenant()).get("/api/v1/jobs/" + poison.id()).json();
                assertThat(quarantined.get("status").asString()).as(quarantined.toString()).isEqualTo("FAILED");
                assertThat(quarantined.get("error").asString()).contains("quarantined as a poison job");
                List<Submitted> innocent = jobs.stream().filter(j -> !j.poison()).toList();
                assertThat(innocent).as("innocent jobs that did not end DONE")
                        .allSatisfy(j -> assertThat(ended.get(j.id())).as(j.id()).isEqualTo("DONE"));
                verifyProofs(instances, innocent, circuitDir);

                String logs = killed.logs() + terminated.logs();
                for (Submitted j : innocent) {
                    assertThat(count(logs, "job " + j.id() + " DONE")).as("job " + j.id() + " stored DONE once")
                            .isEqualTo(1);
                }
                Map<String, Integer> charged = charges(logs);
                System.out.printf("chaos: %d jobs (%d partitions) of %d tenants in %d s; %d SIGKILLs, 1 SIGTERM, "
                                + "instance exits %s / %s (134: halted by the poison); crashes charged: poison %d, "
                                + "innocent jobs %s%n", JOBS, jobs.stream().mapToInt(Submitted::partitions).sum(),
                        TENANTS.size(), Duration.ofNanos(System.nanoTime() - started).toSeconds(), chaos.kills.get(),
                        killed.exits(), terminated.exits(), charged.getOrDefault(poison.id(), 0),
                        charged.entrySet().stream().filter(e -> !e.getKey().equals(poison.id()))
                                .map(Map.Entry::getValue).sorted(Collections.reverseOrder()).toList());
                assertThat(chaos.kills.get()).as("SIGKILLs while jobs ran").isGreaterThanOrEqualTo(WAVES - 1);
                assertThat(chaos.terminated).as("the other instance was SIGTERMed mid-run").isTrue();
            }
        }
    }

    /** The instance killed again and again, and the one SIGTERM; stops once every job has ended. */
    private static final class Chaos {
        final AtomicInteger kills = new AtomicInteger();
        volatile boolean terminated;
        private volatile boolean stopped;

        void killAgainAndAgain(Supervised instance) {
            Random random = new Random(SEED);
            try {
                while (!stopped) {
                    instance.awaitUp(Duration.ofMinutes(5));
                    Thread.sleep(2000 + random.nextInt(3000));
                    if (!stopped && instance.kill()) {
                        kills.incrementAndGet();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void terminateOnce(Supervised instance) throws InterruptedException {
            if (!terminated) {
                terminated = true;
                instance.terminate(Duration.ofMinutes(3));
            }
        }

        /**
         * Waits until the killed instance has died {@code n} times: submissions come in waves between kills, so that
         * the kills fall among running jobs however fast the machine proves.
         */
        void awaitKills(int n) throws InterruptedException {
            long end = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (kills.get() < n && System.nanoTime() < end) {
                Thread.sleep(100);
            }
        }

        void stop() {
            stopped = true;
        }
    }

    /** Each tenant registers the circuit (the same zkey: one circuit all three may use). */
    private static String registerForEveryTenant(ServiceProcess instance, Path circuitDir) throws Exception {
        String id = null;
        for (String tenant : TENANTS) {
            id = instance.api(tenant).registerCircuit(Map.of("zkey", Files.readAllBytes(circuitDir.resolve(
                    "circuit.zkey"))), Map.of()).get("id").asString();
        }
        return id;
    }

    /**
     * One tenant's share of the jobs, one or two partitions each, to whichever instance answers, in {@link #WAVES}
     * waves with a SIGKILL between two waves.
     */
    private static Void submitAll(List<Supervised> instances, String tenant, String circuit, Path circuitDir,
                                  String poisonCircuit, Path poisonDir, List<Submitted> jobs, Chaos chaos)
            throws Exception {
        int perTenant = JOBS / TENANTS.size();
        int perWave = perTenant / WAVES;
        Random random = new Random(SEED + tenant.hashCode());
        String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(circuitDir.resolve("witness.wtns")));
        String poisonWitness = Base64.getEncoder().encodeToString(Files.readAllBytes(poisonDir.resolve(
                "witness.wtns")));
        for (int i = 0; i < perTenant; i++) {
            if (i > 0 && i % perWave == 0) {
                chaos.awaitKills(i / perWave);
            }
            boolean poison = tenant.equals(TENANTS.getFirst()) && i == POISON_INDEX;
            int partitions = poison ? 1 : 1 + random.nextInt(2);
            String w = poison ? poisonWitness : witness;
            String body = "{\"circuitId\":\"%s\",\"requestId\":\"%s\",\"priority\":\"%s\",\"partitions\":[%s]}"
                    .formatted(poison ? poisonCircuit : circuit, tenant + "-" + i,
                            List.of("LOW", "NORMAL", "HIGH").get(random.nextInt(3)),
                            String.join(",", Collections.nCopies(partitions, "{\"witness\":\"" + w + "\"}")));
            jobs.add(new Submitted(tenant, submit(instances, tenant, body), partitions, poison));
            Thread.sleep(random.nextInt(400));
        }
        return null;
    }

    /** Submits until an instance accepts (202) or answers the replay (200); a cut-off answer is sent again. */
    private static String submit(List<Supervised> instances, String tenant, String body) throws Exception {
        long end = System.nanoTime() + TIMEOUT.toNanos();
        for (int attempt = 0; System.nanoTime() < end; attempt++) {
            ServiceProcess instance = instances.get(attempt % instances.size()).up();
            if (instance != null) {
                try {
                    Api.Response r = instance.api(tenant).postJson("/api/v1/jobs", body);
                    if (r.status() == 202 || r.status() == 200) {
                        return r.json().get("id").asString();
                    }
                    assertThat(r.status()).as(r.body()).isIn(429, 503);
                } catch (IOException cutOff) {
                    // the instance died under the request: send it again
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no instance accepted the job within " + TIMEOUT);
    }

    /** Polls every tenant's jobs until all have ended; SIGTERMs the second instance once a third has. */
    private static Map<String, String> awaitAllEnded(List<Supervised> instances, List<Submitted> jobs, Chaos chaos,
                                                     Supervised terminated) throws Exception {
        Map<String, String> status = new ConcurrentHashMap<>();
        long end = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < end) {
            for (String tenant : TENANTS) {
                try {
                    JsonNode page = api(instances, tenant).get("/api/v1/jobs?size=500").json();
                    for (JsonNode job : page.get("jobs")) {
                        status.put(job.get("id").asString(), job.get("status").asString());
                    }
                } catch (IOException | AssertionError unavailable) {
                    // an instance died under the request, or none is up: look again
                }
            }
            long ended = jobs.stream().filter(j -> isEnded(status.get(j.id()))).count();
            if (ended >= JOBS / 3) {
                chaos.terminateOnce(terminated);
            }
            if (ended == JOBS) {
                return status;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("not every job ended within " + TIMEOUT + ": " + status);
    }

    private static boolean isEnded(String status) {
        return status != null && (status.equals("DONE") || status.equals("FAILED") || status.equals("CANCELLED"));
    }

    private static void verifyProofs(List<Supervised> instances, List<Submitted> jobs, Path circuitDir)
            throws Exception {
        var vk = VerificationKeyJson.read(circuitDir.resolve("verification_key.json"));
        for (Submitted j : jobs) {
            JsonNode proofs = api(instances, j.tenant()).get("/api/v1/jobs/" + j.id() + "/proof").json().get("proofs");
            assertThat(proofs).as("job " + j.id()).hasSize(j.partitions());
            for (JsonNode p : proofs) {
                assertThat(Groth16Verifier.verify(vk, PublicSignalsJson.parse(p.get("publicSignals").toString(), "p"),
                        ProofJson.parse(p.get("proof").toString(), "p")).valid()).as("job " + j.id()).isTrue();
            }
        }
    }

    /** The API of an instance that is up, as {@code tenant}. */
    private static Api api(List<Supervised> instances, String tenant) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            for (Supervised s : instances) {
                ServiceProcess p = s.up();
                if (p != null) {
                    return p.api(tenant);
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no instance up for a minute");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            n++;
        }
        return n;
    }

    /** The crashes charged per job, from the instances' logs. */
    private static Map<String, Integer> charges(String logs) {
        Map<String, Integer> charged = new HashMap<>();
        Matcher m = CHARGED.matcher(logs);
        while (m.find()) {
            charged.merge(m.group(1), 1, Integer::sum);
        }
        return charged;
    }
}
