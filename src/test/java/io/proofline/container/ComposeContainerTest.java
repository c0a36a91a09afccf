package io.proofline.container;

import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docker/compose.yaml brought up by {@code podman-compose} (Debian's), with docker/compose.local.yaml naming the
 * images built here: Proofline with the PostgreSQL service as its job store and Prometheus scraping it as the
 * read-only metrics user. A job is proved through the published port and verified; the service's health names
 * PostgreSQL as its database; Prometheus reports the proofline target UP and has its samples.
 */
@Tag("container")
class ComposeContainerTest {

    private static final Path DOCKER = Path.of("docker").toAbsolutePath();
    private static final Path FIXTURE = Path.of("src/test/resources/fixtures/bn128/poseidon_hash");

    @Test
    void composeRunsProoflineWithPostgresAndPrometheusScrapingIt() throws Exception {
        Podman.requireImages(Podman.IMAGE, Podman.PG_IMAGE, Podman.PROMETHEUS_IMAGE);
        if (Podman.runCommand(Duration.ofSeconds(30), null, List.of("sh", "-c", "command -v podman-compose")).exit() != 0) {
            Assumptions.abort("container test skipped: no podman-compose (Debian: apt-get install podman-compose)");
        }
        String project = "proofline-compose-" + System.nanoTime();
        int port = ProoflineContainer.freePort();
        int prometheusPort = ProoflineContainer.freePort();
        String adminPassword = "compose-admin";
        String apiKey = "compose-key";
        String metricsPassword = "compose-metrics";
        Path secret = Files.createTempFile("proofline-metrics-password", "");
        Files.writeString(secret, metricsPassword);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        Map<String, String> env = Map.of("PROOFLINE_ADMIN_PASSWORD", adminPassword, "PROOFLINE_API_KEYS", apiKey,
                "PROOFLINE_METRICS_PASSWORD", metricsPassword, "PROOFLINE_METRICS_PASSWORD_FILE", secret.toString(),
                "PROOFLINE_PORT", Integer.toString(port), "PROMETHEUS_PORT", Integer.toString(prometheusPort),
                "PROOFLINE_IMAGE", Podman.IMAGE, "PROOFLINE_PG_IMAGE", Podman.PG_IMAGE,
                "PROOFLINE_PROMETHEUS_IMAGE", Podman.PROMETHEUS_IMAGE);
        try {
            Podman.Result up = compose(project, env, Duration.ofMinutes(5), "up", "-d");
            assertThat(up.exit()).as(up.out() + up.err()).isZero();

            Api api = new Api(port, apiKey);
            awaitReady(api, project, env);
            JsonNode circuit = api.registerCircuit(Map.of(
                    "zkey", Files.readAllBytes(FIXTURE.resolve("circuit.zkey")),
                    "wasm", Files.readAllBytes(FIXTURE.resolve("circuit.wasm"))), Map.of());
            Api.Response submitted = api.postJson("/api/v1/jobs", "{\"circuitId\":\"" + circuit.get("id").asString()
                    + "\",\"partitions\":[{\"input\":" + Files.readString(FIXTURE.resolve("input.json")) + "}]}");
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
            String jobId = submitted.json().get("id").asString();
            JsonNode job = api.awaitJob(jobId, Duration.ofMinutes(5));
            assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
            JsonNode proof = api.get("/api/v1/jobs/" + jobId + "/proof").json().get("proofs").get(0);
            assertThat(Groth16Verifier.verify(VerificationKeyJson.read(FIXTURE.resolve("verification_key.json")),
                    PublicSignalsJson.parse(proof.get("publicSignals").toString(), "public"),
                    ProofJson.parse(proof.get("proof").toString(), "proof")).valid()).isTrue();

            // The job store is the compose file's PostgreSQL service.
            JsonNode health = Api.JSON.readTree(get("http://127.0.0.1:" + port + "/actuator/health",
                    "admin", adminPassword));
            assertThat(health.at("/components/db/details/database").asString()).isEqualTo("PostgreSQL");

            // Prometheus scrapes it as the metrics user: the target is UP and its samples are there.
            JsonNode target = awaitScraped(prometheusPort);
            assertThat(target.at("/labels/job").asString()).isEqualTo("proofline");
            String query = get("http://127.0.0.1:" + prometheusPort
                    + "/api/v1/query?query=count(%7Bjob%3D%22proofline%22%7D)", null, null);
            long series = Api.JSON.readTree(query).at("/data/result/0/value/1").asLong();
            assertThat(series).as("series scraped from Proofline").isPositive();
            System.out.printf("compose (podman-compose): a poseidon job proved and verified through port %d, job store "
                    + "PostgreSQL, Prometheus target proofline %s with %d series%n", port,
                    target.get("health").asString(), series);
        } finally {
            compose(project, env, Duration.ofMinutes(3), "down", "-v");
            // podman-compose 1.0's down leaves the network it made.
            Podman.run(Duration.ofMinutes(1), "network", "rm", "-f", project + "_default");
            Files.deleteIfExists(secret);
        }
    }

    private static Podman.Result compose(String project, Map<String, String> env, Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("env"));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(List.of("podman-compose", "-p", project, "-f", "compose.yaml", "-f", "compose.local.yaml"));
        command.addAll(List.of(args));
        return Podman.runCommand(timeout, DOCKER, command);
    }

    /** Proofline may start before PostgreSQL accepts connections (podman-compose has no service_healthy): its
     * restart policy starts it again, so readiness comes within minutes. */
    private static void awaitReady(Api api, String project, Map<String, String> env) throws Exception {
        long end = System.nanoTime() + Duration.ofMinutes(6).toNanos();
        while (System.nanoTime() < end) {
            try {
                if (api.get("/actuator/health/readiness").status() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting, or restarting after PostgreSQL was not ready
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("Proofline under compose was not ready:\n"
                + compose(project, env, Duration.ofMinutes(1), "logs", "proofline").out());
    }

    private static JsonNode awaitScraped(int prometheusPort) throws Exception {
        long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        JsonNode targets = null;
        while (System.nanoTime() < end) {
            try {
                targets = Api.JSON.readTree(get("http://127.0.0.1:" + prometheusPort + "/api/v1/targets", null, null));
                for (JsonNode t : targets.at("/data/activeTargets")) {
                    if (t.at("/labels/job").asString().equals("proofline") && t.get("health").asString().equals("up")) {
                        return t;
                    }
                }
            } catch (IOException notYet) {
                // Prometheus starting
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("Prometheus never scraped Proofline successfully: " + targets);
    }

    private static String get(String url, String user, String password) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        HttpResponse<String> r = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return r.body();
    }
}
