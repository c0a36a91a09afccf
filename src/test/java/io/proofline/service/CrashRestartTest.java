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
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nothing accepted is lost across {@code kill -9}: a child service on an H2 file database is killed while it runs
 * a job (and with another job still queued); a new process on the same data directory finishes both, and the proofs
 * verify.
 */
@Tag("slow")
class CrashRestartTest {

    @Test
    void jobsSurviveAKillAndFinishAfterRestart() throws Exception {
        Path circuitDir = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-crash");
        Map<String, String> props = Map.of("proofline.store.data-dir", data.toString(),
                "proofline.pipeline.synthesis-workers", "1", "proofline.pipeline.job-threads", "1",
                "proofline.store.heartbeat-interval", "1s", "proofline.store.missed-heartbeats", "4",
                "proofline.store.polling-interval", "300ms", "proofline.memory.budget", "512MB");
        String circuit;
        String running;
        String queued;
        String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuitDir.resolve("witness.wtns")));
        String partitions = ("{\"witness\":\"" + w + "\"},").repeat(5) + "{\"witness\":\"" + w + "\"}";
        try (ServiceProcess first = ServiceProcess.start("crash-1", props)) {
            Api api = first.api();
            circuit = api.registerCircuit(
                    Map.of("zkey", Files.readAllBytes(circuitDir.resolve("circuit.zkey"))), Map.of()).get("id").asString();
            running = api.postJson("/api/v1/jobs", "{\"circuitId\":\"%s\",\"partitions\":[%s]}"
                    .formatted(circuit, partitions)).json().get("id").asString();
            queued = api.postJson("/api/v1/jobs", "{\"circuitId\":\"%s\",\"priority\":\"LOW\",\"partitions\":[%s]}"
                    .formatted(circuit, partitions)).json().get("id").asString();
            awaitStatus(api, running, "RUNNING", Duration.ofSeconds(60));
            assertThat(api.get("/api/v1/jobs/" + queued).json().get("status").asString()).isEqualTo("QUEUED");
            first.kill();
        }
        try (ServiceProcess second = ServiceProcess.start("crash-2", props)) {
            Api api = second.api();
            var vk = VerificationKeyJson.read(circuitDir.resolve("verification_key.json"));
            for (String id : new String[]{running, queued}) {
                JsonNode job = api.awaitJob(id, Duration.ofMinutes(4));
                assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
                JsonNode proofs = api.get("/api/v1/jobs/" + id + "/proof").json().get("proofs");
                assertThat(proofs).hasSize(6);
                for (JsonNode p : proofs) {
                    assertThat(Groth16Verifier.verify(vk, PublicSignalsJson.parse(p.get("publicSignals").toString(), "p"),
                            ProofJson.parse(p.get("proof").toString(), "p")).valid()).isTrue();
                }
            }
            assertThat(api.get("/api/v1/jobs/" + running).json().get("attempts").asInt())
                    .as("the killed job ran again").isGreaterThanOrEqualTo(2);
        }
    }

    static void awaitStatus(Api api, String id, String status, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (!api.get("/api/v1/jobs/" + id).json().get("status").asString().equals(status)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("job " + id + " never reached " + status);
            }
            Thread.sleep(100);
        }
    }
}
