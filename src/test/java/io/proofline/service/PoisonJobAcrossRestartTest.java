package io.proofline.service;

import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Abuse family "a poison job across a restart", with real processes and crash blame (issue #33): a job whose synthesis
 * halts the JVM ({@link PoisonedServiceMain}) runs beside an innocent job and kills their instance. Neither is charged
 * for that death: both become suspects, and the restarted instance runs them one at a time. The poison job, alone,
 * kills the instance again and is charged; with {@code max-crashes} 1 the next instance quarantines it (FAILED) instead
 * of running it again. The innocent job, which died beside it, ends DONE with proofs that verify (before, it was
 * charged for every death beside the poison and FAILED with it). The last instance stays healthy, proves a new job and
 * keeps no unfinished row, job input or temporary file.
 */
@Tag("slow")
class PoisonJobAcrossRestartTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @Test
    void thePoisonJobIsQuarantinedAndTheJobThatDiedBesideItIsDone() throws Exception {
        Path innocentCircuit = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-poison");
        String poisonId = CircuitIds.of(MUL3.resolve("circuit.zkey"));
        Map<String, String> props = Map.of("proofline.store.data-dir", data.toString(),
                "proofline.store.max-crashes", "1", "proofline.pipeline.synthesis-workers", "1",
                "proofline.store.heartbeat-interval", "1s", "proofline.store.missed-heartbeats", "4",
                "proofline.store.polling-interval", "300ms", "proofline.gpu.enabled", "false",
                "proofline.console.demo.enabled", "false");
        ServiceProcess.Launch launch = ServiceProcess.Launch.poisoned(poisonId, List.of(ServiceProcess.API_KEY));
        String innocent;
        String poison;
        try (ServiceProcess first = ServiceProcess.start("poison-1", props, launch)) {
            Api api = first.api();
            String circuit = api.registerCircuit(Map.of("zkey", Files.readAllBytes(innocentCircuit.resolve(
                    "circuit.zkey"))), Map.of()).get("id").asString();
            assertThat(api.registerCircuit(Map.of("zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey"))), Map.of())
                    .get("id").asString()).isEqualTo(poisonId);
            innocent = submit(api, circuit, innocentCircuit, 6, "NORMAL");
            CrashRestartTest.awaitStatus(api, innocent, "RUNNING", Duration.ofSeconds(60));
            poison = submit(api, poisonId, MUL3, 1, "HIGH");
            assertThat(first.awaitExit(Duration.ofMinutes(2))).as("the poison halted the instance")
                    .isEqualTo(PoisonedServiceMain.HALTED);
        }
        ServiceProcess last = restartUntilBothEnd(props, launch, innocent, poison);
        try (last) {
            Api api = last.api();
            JsonNode quarantined = api.get("/api/v1/jobs/" + poison).json();
            assertThat(quarantined.get("status").asString()).as(quarantined.toString()).isEqualTo("FAILED");
            assertThat(quarantined.get("error").asString()).contains("quarantined as a poison job")
                    .contains("while it ran alone").contains("proofline.store.max-crashes is 1");

            JsonNode done = api.get("/api/v1/jobs/" + innocent).json();
            assertThat(done.get("status").asString()).as("the job that died beside the poison: " + done)
                    .isEqualTo("DONE");
            assertVerified(api, innocent, innocentCircuit, 6);

            Api.Response health = api.get("/actuator/health");
            assertThat(health.status()).as(health.body()).isEqualTo(200);
            assertThat(health.json().get("status").asString()).isEqualTo("UP");
            String good = submit(api, api.registerCircuit(Map.of("zkey", Files.readAllBytes(innocentCircuit.resolve(
                    "circuit.zkey"))), Map.of()).get("id").asString(), innocentCircuit, 1, "NORMAL");
            assertThat(api.awaitJob(good, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("DONE");
            assertNothingLeft(data);
        }
    }

    /** Restarts the service on the data directory as long as it dies, until both jobs have ended. */
    private static ServiceProcess restartUntilBothEnd(Map<String, String> props, ServiceProcess.Launch launch,
                                                      String innocent, String poison) throws Exception {
        for (int start = 2; start <= 6; start++) {
            ServiceProcess next;
            try {
                next = ServiceProcess.start("poison-" + start, props, launch);
            } catch (ServiceProcess.ExitedException haltedWhileStarting) {
                continue;
            }
            long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (next.isAlive() && System.nanoTime() < end) {
                try {
                    if (ended(next.api(), innocent) && ended(next.api(), poison)) {
                        return next;
                    }
                } catch (java.io.IOException dying) {
                    // the poison is halting it
                }
                Thread.sleep(200);
            }
            assertThat(next.isAlive()).as("an instance that neither died nor ended the jobs").isFalse();
            assertThat(next.awaitExit(Duration.ofSeconds(10))).isEqualTo(PoisonedServiceMain.HALTED);
        }
        throw new AssertionError("the jobs did not end within five restarts");
    }

    private static boolean ended(Api api, String job) throws Exception {
        String status = api.get("/api/v1/jobs/" + job).json().get("status").asString();
        return status.equals("DONE") || status.equals("FAILED") || status.equals("CANCELLED");
    }

    static String submit(Api api, String circuit, Path circuitDir, int partitions, String priority) throws Exception {
        String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuitDir.resolve("witness.wtns")));
        String parts = String.join(",", java.util.Collections.nCopies(partitions, "{\"witness\":\"" + w + "\"}"));
        Api.Response r = api.postJson("/api/v1/jobs", "{\"circuitId\":\"%s\",\"priority\":\"%s\",\"partitions\":[%s]}"
                .formatted(circuit, priority, parts));
        assertThat(r.status()).as(r.body()).isEqualTo(202);
        return r.json().get("id").asString();
    }

    static void assertVerified(Api api, String job, Path circuitDir, int partitions) throws Exception {
        var vk = VerificationKeyJson.read(circuitDir.resolve("verification_key.json"));
        JsonNode proofs = api.get("/api/v1/jobs/" + job + "/proof").json().get("proofs");
        assertThat(proofs).hasSize(partitions);
        for (JsonNode p : proofs) {
            assertThat(Groth16Verifier.verify(vk, PublicSignalsJson.parse(p.get("publicSignals").toString(), "p"),
                    ProofJson.parse(p.get("proof").toString(), "p")).valid()).as("job " + job + " proof").isTrue();
        }
    }

    /** No job input and no temporary file is left once every job has ended. */
    static void assertNothingLeft(Path data) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try (Stream<Path> inputs = Files.list(data.resolve("jobs"));
                 Stream<Path> tmp = Files.list(data.resolve("tmp"))) {
                var left = Stream.concat(inputs, tmp).toList();
                if (left.isEmpty()) {
                    return;
                }
                if (System.nanoTime() > end) {
                    throw new AssertionError("left behind: " + left);
                }
            }
            Thread.sleep(100);
        }
    }
}
