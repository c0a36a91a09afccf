package io.proofline.web;

import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import jakarta.servlet.MultipartConfigElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The REST API over a real port, end to end through the CPU backend: registration, JSON and multipart jobs, proofs
 * checked by our verifier and by snarkjs, idempotency, the error answers (401, 404, 409, 413, 422, 429, 400) as
 * problem+json naming the field, and Actuator's access rules.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=test-key,other-key",
        "proofline.security.admin-password=admin-pw",
        "proofline.security.requests-per-second=10000",
        "proofline.pipeline.queue-capacity=8",
        "proofline.pipeline.synthesis-workers=1",
        "proofline.store.max-circuit-size=2MB",
        "proofline.store.max-job-size=2MB",
        "proofline.store.polling-interval=200ms",
        "proofline.memory.budget=1GB",
        "management.defaults.metrics.export.enabled=true"})
@Tag("slow")
class ServiceApiTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");
    static final String KEY = "test-key";

    static Path dataDir;

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) throws Exception {
        dataDir = Files.createTempDirectory("proofline-api-test");
        registry.add("proofline.store.data-dir", dataDir::toString);
    }

    @Autowired
    org.springframework.context.ApplicationContext context;

    @LocalServerPort
    int port;
    Api api;

    @BeforeEach
    void client() {
        api = new Api(port, KEY);
    }

    String register(String curve) throws Exception {
        JsonNode c = api.registerCircuit(Map.of(
                "zkey", Files.readAllBytes(MUL3.resolve(curve).resolve("circuit.zkey")),
                "r1cs", Files.readAllBytes(MUL3.resolve(curve).resolve("circuit.r1cs"))), Map.of("name", "mul3-" + curve));
        assertThat(c.get("curve").asString()).isEqualTo(curve);
        assertThat(c.get("constraints").asLong()).isEqualTo(2);
        assertThat(c.get("variables").asLong()).isEqualTo(6);
        assertThat(c.get("publicSignals").asInt()).isEqualTo(2);
        assertThat(c.get("domainSize").asLong()).isEqualTo(8);
        return c.get("id").asString();
    }

    String witness(String curve) throws Exception {
        return Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve(curve).resolve("witness.wtns")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void jsonJobIsProvedAndItsProofsVerifyWithOurVerifierAndSnarkjs(String curve) throws Exception {
        String circuit = register(curve);
        String w = witness(curve);
        Api.Response submitted = api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","priority":"HIGH","verify":true,"partitions":[{"witness":"%s"},{"witness":"%s"}]}"""
                .formatted(circuit, w, w));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
        String id = submitted.json().get("id").asString();
        assertThat(submitted.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith(id));

        JsonNode job = api.awaitJob(id, Duration.ofMinutes(2));
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        assertThat(job.get("partitions")).hasSize(2);
        assertThat(job.get("partitions").get(0).get("stage").asString()).isEqualTo("DONE");
        assertThat(job.get("timings").get("totalMs").asLong()).isPositive();

        JsonNode proofs = api.get("/api/v1/jobs/" + id + "/proof").json().get("proofs");
        assertThat(proofs).hasSize(2);
        Path vkFile = MUL3.resolve(curve).resolve("verification_key.json");
        var vk = VerificationKeyJson.read(vkFile);
        for (JsonNode p : proofs) {
            assertThat(p.get("proof").get("curve").asString()).isEqualTo(curve);
            assertThat(Groth16Verifier.verify(vk, PublicSignalsJson.parse(p.get("publicSignals").toString(), "pub"),
                    ProofJson.parse(p.get("proof").toString(), "proof")).valid()).isTrue();
            JsonNode verdict = api.postJson("/api/v1/verify", """
                    {"circuitId":"%s","proof":%s,"publicSignals":%s}""".formatted(circuit, p.get("proof"),
                    p.get("publicSignals"))).json();
            assertThat(verdict.get("valid").asBoolean()).isTrue();
            JsonNode tampered = api.postJson("/api/v1/verify", """
                    {"verificationKey":%s,"proof":%s,"publicSignals":["1","2"]}""".formatted(
                    Files.readString(vkFile), p.get("proof"))).json();
            assertThat(tampered.get("valid").asBoolean()).isFalse();
        }
        assertThat(api.get("/api/v1/circuits/" + circuit + "/verification-key").json().get("IC"))
                .isEqualTo(Api.JSON.readTree(Files.readString(vkFile)).get("IC"));

        Path snarkjs = SnarkjsCli.executable();
        Assumptions.assumeTrue(snarkjs != null,
                "snarkjs not installed (scripts/install-node-tools.sh or SNARKJS): snarkjs check skipped");
        Path dir = Files.createTempDirectory("proofline-snarkjs");
        Files.writeString(dir.resolve("proof.json"), proofs.get(0).get("proof").toString());
        Files.writeString(dir.resolve("public.json"), proofs.get(0).get("publicSignals").toString());
        assertThat(SnarkjsCli.verify(vkFile, dir.resolve("public.json"), dir.resolve("proof.json"))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"bn128/range_compare", "bls12381/range_compare", "bn128/poseidon_hash"})
    void inputPartitionsAreComputedWithTheCircuitsWasm(String fixture) throws Exception {
        Path dir = Path.of("src/test/resources/fixtures").resolve(fixture);
        JsonNode meta = Api.JSON.readTree(Files.readString(dir.resolve("meta.json")));
        // registered without the r1cs first: the constraint count comes from the zkey alone
        JsonNode circuit = api.registerCircuit(Map.of("zkey",
                Files.readAllBytes(dir.resolve("circuit.zkey")), "wasm", Files.readAllBytes(dir.resolve("circuit.wasm"))),
                Map.of("name", fixture));
        assertThat(circuit.get("constraints").asLong()).isEqualTo(meta.get("nConstraints").asLong());
        assertThat(circuit.get("variables").asLong()).isEqualTo(meta.get("nVars").asLong());
        assertThat(circuit.get("domainSize").asLong()).isEqualTo(meta.get("domainSize").asLong());
        assertThat(circuit.get("hasWasm").asBoolean()).isTrue();
        String id = circuit.get("id").asString();
        String input = Files.readString(dir.resolve("input.json"));
        String w = Base64.getEncoder().encodeToString(Files.readAllBytes(dir.resolve("witness.wtns")));
        Api.Response submitted = api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"input":%s},{"witness":"%s"}]}""".formatted(id, input, w));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
        JsonNode job = api.awaitJob(submitted.json().get("id").asString(), Duration.ofMinutes(3));
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        JsonNode proofs = api.get("/api/v1/jobs/" + job.get("id").asString() + "/proof").json().get("proofs");
        JsonNode expectedPublic = Api.JSON.readTree(Files.readString(dir.resolve("public.json")));
        var vk = VerificationKeyJson.read(dir.resolve("verification_key.json"));
        for (JsonNode p : proofs) {
            assertThat(p.get("publicSignals")).isEqualTo(expectedPublic);
            assertThat(Groth16Verifier.verify(vk, PublicSignalsJson.parse(p.get("publicSignals").toString(), "pub"),
                    ProofJson.parse(p.get("proof").toString(), "proof")).valid()).isTrue();
        }
        Path snarkjs = SnarkjsCli.executable();
        Assumptions.assumeTrue(snarkjs != null,
                "snarkjs not installed (scripts/install-node-tools.sh or SNARKJS): snarkjs check skipped");
        Path out = Files.createTempDirectory("proofline-snarkjs");
        Files.writeString(out.resolve("proof.json"), proofs.get(0).get("proof").toString());
        Files.writeString(out.resolve("public.json"), proofs.get(0).get("publicSignals").toString());
        assertThat(SnarkjsCli.verify(dir.resolve("verification_key.json"), out.resolve("public.json"),
                out.resolve("proof.json"))).isTrue();
    }

    @Test
    void aRegisteredKeyIsSpooledIntoTheDataDirectoryAndMovedIntoPlace() throws Exception {
        // the parts are read from the request into tmp/ (the container parses no multipart body), so the zkey
        // reaches circuits/ by renames: a key of many GB is written once, not spooled elsewhere and copied again
        Path tmp = dataDir.toAbsolutePath().normalize().resolve("tmp");
        assertThat(context.getBeanNamesForType(MultipartConfigElement.class)).as("no container multipart").isEmpty();
        String id = register("bn128");
        assertThat(dataDir.resolve("circuits").resolve(id).resolve("circuit.zkey"))
                .hasSameBinaryContentAs(MUL3.resolve("bn128").resolve("circuit.zkey"));
        try (var left = Files.list(tmp)) {
            assertThat(left.toList()).as("nothing left in tmp/ after the registration").isEmpty();
        }
    }

    @Test
    void unsatisfiedWitnessFailsTheJobWhenTheR1csIsKnown() throws Exception {
        String circuit = register("bn128");
        byte[] wtns = Files.readAllBytes(MUL3.resolve("bn128/witness.wtns"));
        wtns[wtns.length - 1] ^= 1; // the last private value changes: a constraint breaks
        Api.Response r = api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"witness":"%s"}]}""".formatted(circuit,
                Base64.getEncoder().encodeToString(wtns)));
        assertThat(r.status()).as(r.body()).isEqualTo(202);
        JsonNode job = api.awaitJob(r.json().get("id").asString(), Duration.ofMinutes(1));
        assertThat(job.get("status").asString()).isEqualTo("FAILED");
        assertThat(job.get("error").asString()).contains("constraint");
        assertProblem(api.get("/api/v1/jobs/" + job.get("id").asString() + "/proof"), 409, "id");
    }

    @Test
    void multipartJobWithOneWitnessFilePerPartition() throws Exception {
        String circuit = register("bn128");
        byte[] wtns = Files.readAllBytes(MUL3.resolve("bn128/witness.wtns"));
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("witness#0", wtns);
        files.put("witness#1", wtns);
        files.put("witness#2", wtns);
        Api.Response r = api.postMultipart("/api/v1/jobs", files, Map.of("circuitId", circuit, "priority", "low"));
        assertThat(r.status()).as(r.body()).isEqualTo(202);
        JsonNode job = api.awaitJob(r.json().get("id").asString(), Duration.ofMinutes(2));
        assertThat(job.get("status").asString()).isEqualTo("DONE");
        assertThat(job.get("partitions")).hasSize(3);
        // the submit call's split, written with the job's rows, outlives the run's own timings written at its end
        JsonNode intake = job.get("timings").get("intake");
        assertThat(intake).as(job.toString()).isNotNull();
        for (String phase : new String[]{"receivedMs", "checkedMs", "durableMs", "rowsMs"}) {
            assertThat(intake.get(phase).asLong(-1)).as(phase).isNotNegative();
        }
        assertThat(job.get("timings").get("totalMs").asLong()).isPositive();
        assertThat(job.get("partitions").get(0).get("timings").has("intake")).isFalse();
    }

    @Test
    void sameRequestIdAnswersTheSameJob() throws Exception {
        String circuit = register("bn128");
        String body = """
                {"circuitId":"%s","requestId":"req-42","partitions":[{"witness":"%s"}]}""".formatted(circuit,
                witness("bn128"));
        Api.Response first = api.postJson("/api/v1/jobs", body);
        Api.Response second = api.postJson("/api/v1/jobs", body);
        assertThat(first.status()).isEqualTo(202);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().get("id")).isEqualTo(first.json().get("id"));
        String id = first.json().get("id").asString();
        api.awaitJob(id, Duration.ofMinutes(1));
        assertThat(api.get("/api/v1/jobs?status=DONE&size=500").json().get("jobs").valueStream()
                .filter(j -> j.get("id").asString().equals(id)).count()).isEqualTo(1);
        Api.Response cancelFinished = api.delete("/api/v1/jobs/" + id);
        assertProblem(cancelFinished, 409, "id");
    }

    @Test
    void errorsAreProblemsNamingTheField() throws Exception {
        String circuit = register("bn128");
        String w = witness("bn128");
        // 401: no key, wrong key
        assertProblem(new Api(port, null).get("/api/v1/circuits"), 401, "X-API-Key");
        assertProblem(new Api(port, "wrong").get("/api/v1/circuits"), 401, "X-API-Key");
        // 404: unknown circuit, unknown job
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"witness":"%s"}]}""".formatted("0".repeat(64), w)), 404, "circuitId");
        assertProblem(api.get("/api/v1/jobs/00000000-0000-0000-0000-000000000000"), 404, "id");
        assertProblem(api.get("/api/v1/circuits/nonsense"), 404, "circuitId");
        // 422: witness of another curve, of another length; an input for a circuit without wasm; a broken zkey
        String bls = witness("bls12381");
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"witness":"%s"},{"witness":"%s"}]}""".formatted(circuit, w, bls)),
                422, "partitions[1].witness");
        String otherLength = Base64.getEncoder().encodeToString(
                Files.readAllBytes(Path.of("src/test/resources/witness/arrays-bn128/witness.wtns")));
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"witness":"%s"}]}""".formatted(circuit, otherLength)),
                422, "partitions[0].witness");
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"input":{"a":"3","b":"11"}}]}""".formatted(circuit)),
                422, "partitions[0].input");
        assertProblem(api.postMultipart("/api/v1/circuits", Map.of("zkey", "not a zkey at all".getBytes()), Map.of()),
                422, "zkey");
        // 400: bad base64, unknown priority, not JSON, no partitions, both witness and input
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"witness":"***"}]}""".formatted(circuit)), 400, "partitions[0].witness");
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","priority":"urgent","partitions":[{"witness":"%s"}]}""".formatted(circuit, w)),
                400, "priority");
        assertProblem(api.postJson("/api/v1/jobs", "{not json"), 400, "body");
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[]}""".formatted(circuit)), 400, "partitions");
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"witness":"%s","input":{}}]}""".formatted(circuit, w)),
                400, "partitions[0]");
        assertProblem(api.postMultipart("/api/v1/circuits", Map.of(), Map.of("name", "x")), 400, "zkey");
        // 413: a JSON job over max-job-size, a zkey over max-circuit-size
        String huge = Base64.getEncoder().encodeToString(new byte[3 << 20]);
        assertProblem(api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[{"witness":"%s"}]}""".formatted(circuit, huge)), 413, "body");
        Api.Response bigZkey = api.postMultipart("/api/v1/circuits", Map.of("zkey", new byte[(2 << 20) + 1]), Map.of());
        assertThat(bigZkey.status()).as(bigZkey.body()).isEqualTo(413);
        // 429: more partitions than the queue's capacity (8), with Retry-After
        StringBuilder nine = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            nine.append(i == 0 ? "" : ",").append("{\"witness\":\"").append(w).append("\"}");
        }
        Api.Response full = api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","partitions":[%s]}""".formatted(circuit, nine));
        assertProblem(full, 429, null);
        assertThat(full.headers().firstValue("Retry-After")).hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isPositive());
    }

    @Test
    void actuatorProbesAreOpenAndTheRestNeedsTheAdmin() throws Exception {
        Api anonymous = new Api(port, null);
        assertThat(anonymous.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(anonymous.get("/actuator/health/liveness").status()).isEqualTo(200);
        assertThat(anonymous.get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(anonymous.get("/actuator/pipeline").status()).isEqualTo(401);
        String basic = "Basic " + Base64.getEncoder().encodeToString("admin:admin-pw".getBytes());
        Api.Response prometheus = anonymous.send(anonymous.request("/actuator/prometheus").header("Authorization", basic));
        assertThat(prometheus.status()).isEqualTo(200);
        assertThat(prometheus.body()).contains("proofline_buffer_bytes{class=\"abc\",stage=\"synthesizing\"}")
                .contains("proofline_budget_total_bytes").contains("proofline_process_rss_bytes")
                .contains("proofline_queue_depth{stage=\"queued\"}").contains("proofline_device_busy_workers{device=\"cpu\"}");
        Api.Response pipeline = anonymous.send(anonymous.request("/actuator/pipeline").header("Authorization", basic));
        assertThat(pipeline.status()).isEqualTo(200);
        assertThat(pipeline.json().get("snapshot").get("cells")).isNotEmpty();
        Api.Response info = anonymous.send(anonymous.request("/actuator/info").header("Authorization", basic));
        assertThat(info.json().get("backends").get("available").toString()).contains("cpu");
        assertThat(anonymous.get("/v3/api-docs").body()).contains("/api/v1/jobs").contains("/api/v1/pipeline/stream")
                .as("both submission bodies are described though the controller reads them itself")
                .contains("JobSubmission").contains("MultipartJobSubmission");
        JsonNode snapshot = api.get("/api/v1/pipeline").json();
        assertThat(snapshot.get("budget").get("totalBytes").asLong()).isEqualTo(1L << 30);
        var http = java.net.http.HttpClient.newHttpClient();
        var response = http.send(api.request("/api/v1/pipeline/stream").header("Accept", "text/event-stream").build(),
                java.net.http.HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        try (var lines = response.body()) {
            assertThat(lines.limit(4).filter(l -> l.startsWith("event:")).findFirst())
                    .hasValueSatisfying(l -> assertThat(l).contains("snapshot"));
        }
    }

    static void assertProblem(Api.Response r, int status, String field) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                t -> assertThat(t).startsWith("application/problem+json"));
        JsonNode p = r.json();
        assertThat(p.get("status").asInt()).isEqualTo(status);
        if (field != null) {
            assertThat(p.get("field").asString()).as(r.body()).isEqualTo(field);
        }
    }
}
