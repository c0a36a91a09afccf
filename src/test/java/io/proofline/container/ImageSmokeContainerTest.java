package io.proofline.container;

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
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The image started as a user starts it ({@code podman run -d -p PORT:8080 -v DATA:/var/lib/proofline IMAGE}, the
 * documented command, nothing else but the API key and admin password): readiness UP from outside, a circuit
 * registered with its witness calculator and a job of circuit inputs proved over HTTP, the proof verified here; the
 * process inside is the JVM as PID 1 and runs as the image's non-root user, the upload lands on the volume, and the
 * image's configuration is what docker/Dockerfile declares (entry point, command, user, volume, health check).
 */
@Tag("container")
class ImageSmokeContainerTest {

    private static final Path FIXTURE = Path.of("src/test/resources/fixtures/bn128/poseidon_hash");

    @Test
    void theImageServesAndProvesAsAUserRunsIt() throws Exception {
        Podman.requireImages(Podman.IMAGE);
        String name = "proofline-smoke-" + System.nanoTime();
        String volume = name + "-data";
        try (ProoflineContainer c = ProoflineContainer.start(name, List.of("-v", volume + ":/var/lib/proofline"))) {
            Duration ready = c.awaitReady(Duration.ofMinutes(5));

            Api api = c.api();
            JsonNode circuit = api.registerCircuit(Map.of(
                    "zkey", Files.readAllBytes(FIXTURE.resolve("circuit.zkey")),
                    "wasm", Files.readAllBytes(FIXTURE.resolve("circuit.wasm"))), Map.of());
            String circuitId = circuit.get("id").asString();
            Api.Response submitted = api.postJson("/api/v1/jobs", "{\"circuitId\":\"" + circuitId
                    + "\",\"partitions\":[{\"input\":" + Files.readString(FIXTURE.resolve("input.json")) + "}]}");
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
            String jobId = submitted.json().get("id").asString();
            JsonNode job = api.awaitJob(jobId, Duration.ofMinutes(5));
            assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
            JsonNode proofs = api.get("/api/v1/jobs/" + jobId + "/proof").json().get("proofs");
            assertThat(proofs).hasSize(1);
            var vk = VerificationKeyJson.read(FIXTURE.resolve("verification_key.json"));
            assertThat(Groth16Verifier.verify(vk,
                    PublicSignalsJson.parse(proofs.get(0).get("publicSignals").toString(), "public"),
                    ProofJson.parse(proofs.get(0).get("proof").toString(), "proof")).valid())
                    .as("the container's proof verifies against the fixture's verification key").isTrue();

            // PID 1 is the JVM (it gets SIGTERM itself), and it runs as the image's non-root user.
            assertThat(c.exec("cat", "/proc/1/cmdline").replace('\0', ' ')).startsWith("/opt/jre/bin/java ");
            assertThat(c.exec("id", "-u")).isEqualTo("10001");
            assertThat(c.exec("cat", "/proc/1/status")).containsPattern("(?m)^Uid:\\s+10001\\s+10001");
            // The upload is on the volume, so it outlives the container.
            assertThat(c.exec("sh", "-c", "find /var/lib/proofline -type f | wc -l")).isNotEqualTo("0");
            assertThat(Podman.inspect(volume, "{{.Name}}")).isEqualTo(volume);

            assertThat(Podman.inspect(Podman.IMAGE, "{{json .Config.Entrypoint}}")).isEqualTo("[\"/app/bin/proofline\"]");
            assertThat(Podman.inspect(Podman.IMAGE, "{{json .Config.Cmd}}")).isEqualTo("[\"serve\"]");
            assertThat(Podman.inspect(Podman.IMAGE, "{{.Config.User}}")).isEqualTo("10001:10001");
            assertThat(Podman.inspect(Podman.IMAGE, "{{json .Config.Volumes}}")).contains("/var/lib/proofline");
            assertThat(Podman.inspect(Podman.IMAGE, "{{json .HealthCheck}}"))
                    .contains("/actuator/health/liveness");

            long size = Long.parseLong(Podman.inspect(Podman.IMAGE, "{{.Size}}"));
            System.out.printf("container smoke: image %s %d MB, podman run to readiness UP %.1f s, one poseidon proof "
                    + "(input job) verified%n", Podman.IMAGE, size / 1_000_000, ready.toMillis() / 1000.0);
        } finally {
            Podman.removeQuietly(List.of(name), List.of(volume));
        }
    }
}
