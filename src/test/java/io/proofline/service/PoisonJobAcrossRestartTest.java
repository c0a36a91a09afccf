package io.proofline.service;

import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Abuse family "a poison job across a restart" (issue #19), with real processes: an instance is killed
 * ({@code kill -9}, as a job that crashes the JVM would have it) while it runs a job; the next instance on the same
 * data directory takes the job over and, the job's runs having used up {@code proofline.store.max-attempts}, FAILs it
 * as a poison job instead of running it (and dying) again. That instance stays healthy, proves a good job, and keeps
 * no unfinished row, job input or temporary file.
 */
@Tag("slow")
class PoisonJobAcrossRestartTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @Test
    void aJobWhoseRunKilledItsInstanceIsQuarantinedByTheNextOneWhichStaysHealthy() throws Exception {
        Path circuitDir = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-poison");
        Map<String, String> props = Map.of("proofline.store.data-dir", data.toString(),
                "proofline.store.max-attempts", "1",
                "proofline.pipeline.synthesis-workers", "1",
                "proofline.store.heartbeat-interval", "1s", "proofline.store.missed-heartbeats", "4",
                "proofline.store.polling-interval", "300ms", "proofline.memory.budget", "512MB",
                "proofline.gpu.enabled", "false", "proofline.console.demo.enabled", "false");
        String poison;
        try (ServiceProcess first = ServiceProcess.start("poison-1", props)) {
            Api api = first.api();
            String circuit = api.registerCircuit(
                    Map.of("zkey", Files.readAllBytes(circuitDir.resolve("circuit.zkey"))), Map.of()).get("id").asString();
            String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuitDir.resolve("witness.wtns")));
            String partitions = ("{\"witness\":\"" + w + "\"},").repeat(7) + "{\"witness\":\"" + w + "\"}";
            poison = api.postJson("/api/v1/jobs", "{\"circuitId\":\"%s\",\"partitions\":[%s]}"
                    .formatted(circuit, partitions)).json().get("id").asString();
            CrashRestartTest.awaitStatus(api, poison, "RUNNING", Duration.ofSeconds(60));
            first.kill();
        }
        try (ServiceProcess second = ServiceProcess.start("poison-2", props)) {
            Api api = second.api();
            JsonNode job = api.awaitJob(poison, Duration.ofMinutes(2));
            assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("FAILED");
            assertThat(job.get("error").asString()).contains("quarantined as a poison job")
                    .contains("proofline.store.max-attempts is 1");
            assertThat(second.log()).as("the poison job was not run again").doesNotContain(
                    "job " + poison + " DONE");

            Api.Response health = api.get("/actuator/health");
            assertThat(health.status()).as(health.body()).isEqualTo(200);
            assertThat(health.json().get("status").asString()).isEqualTo("UP");
            String circuit = api.registerCircuit(
                    Map.of("zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey"))), Map.of()).get("id").asString();
            String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve("witness.wtns")));
            String good = api.postJson("/api/v1/jobs", "{\"circuitId\":\"" + circuit
                    + "\",\"partitions\":[{\"witness\":\"" + witness + "\"}]}").json().get("id").asString();
            JsonNode done = api.awaitJob(good, Duration.ofMinutes(1));
            assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");

            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (true) {
                try (Stream<Path> inputs = Files.list(data.resolve("jobs"));
                     Stream<Path> tmp = Files.list(data.resolve("tmp"))) {
                    var left = Stream.concat(inputs, tmp).toList();
                    if (left.isEmpty()) {
                        break;
                    }
                    if (System.nanoTime() > end) {
                        throw new AssertionError("left behind: " + left);
                    }
                }
                Thread.sleep(100);
            }
        }
    }
}
