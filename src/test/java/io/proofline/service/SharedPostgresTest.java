package io.proofline.service;

import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances share one PostgreSQL (a schema of its own per run, on the server {@link TestPostgres} chooses) and one
 * data directory. The instance that claimed a job is killed mid-job; the other takes the job over when the lease
 * expires and finishes it, and each proof is stored once.
 */
@Tag("slow")
@Tag("postgres")
class SharedPostgresTest {

    static TestPostgres.Schema schema;

    @BeforeAll
    static void database() throws SQLException {
        schema = TestPostgres.newSchema();
    }

    @AfterAll
    static void dropSchema() throws SQLException {
        if (schema != null) {
            schema.close();
        }
    }

    @Test
    void anotherInstanceFinishesTheJobOfAKilledOne() throws Exception {
        Path circuitDir = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-shared");
        Map<String, String> common = new HashMap<>(Map.of(
                "spring.datasource.url", schema.url(),
                "spring.datasource.username", schema.user(), "spring.datasource.password", schema.password(),
                "spring.flyway.schemas", schema.name(),
                "proofline.store.data-dir", data.toString(),
                "proofline.pipeline.synthesis-workers", "1", "proofline.pipeline.job-threads", "1",
                "proofline.store.heartbeat-interval", "1s", "proofline.store.missed-heartbeats", "4",
                "proofline.store.polling-interval", "300ms"));
        common.put("proofline.memory.budget", "512MB");
        Map<String, String> propsA = new HashMap<>(common);
        propsA.put("proofline.store.instance-name", "instance-a");
        Map<String, String> propsB = new HashMap<>(common);
        propsB.put("proofline.store.instance-name", "instance-b");

        String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuitDir.resolve("witness.wtns")));
        String partitions = ("{\"witness\":\"" + w + "\"},").repeat(5) + "{\"witness\":\"" + w + "\"}";
        try (ServiceProcess a = ServiceProcess.start("pg-a", propsA);
             ServiceProcess b = ServiceProcess.start("pg-b", propsB)) {
            String circuit = a.api().registerCircuit(
                    Map.of("zkey", Files.readAllBytes(circuitDir.resolve("circuit.zkey"))), Map.of()).get("id").asString();
            assertThat(b.api().get("/api/v1/circuits/" + circuit).status()).isEqualTo(200);

            String job = a.api().postJson("/api/v1/jobs", "{\"circuitId\":\"%s\",\"partitions\":[%s]}"
                    .formatted(circuit, partitions)).json().get("id").asString();
            CrashRestartTest.awaitStatus(b.api(), job, "RUNNING", Duration.ofSeconds(60));
            String owner = owner(job);
            ServiceProcess victim = owner.equals("instance-a") ? a : b;
            ServiceProcess survivor = victim == a ? b : a;
            victim.kill();

            JsonNode done = survivor.api().awaitJob(job, Duration.ofMinutes(4));
            assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
            assertThat(done.get("attempts").asInt()).as("taken over after the kill").isGreaterThanOrEqualTo(2);
            JsonNode proofs = survivor.api().get("/api/v1/jobs/" + job + "/proof").json().get("proofs");
            assertThat(proofs).hasSize(6);
            var vk = VerificationKeyJson.read(circuitDir.resolve("verification_key.json"));
            for (JsonNode p : proofs) {
                assertThat(Groth16Verifier.verify(vk, PublicSignalsJson.parse(p.get("publicSignals").toString(), "p"),
                        ProofJson.parse(p.get("proof").toString(), "p")).valid()).isTrue();
            }
            assertThat(count("select count(*) from proofs where job_id = '" + job + "'")).isEqualTo(6);
            assertThat(count("select count(*) from scheduled_tasks where task_name = 'prove-job'")).isZero();
        }
    }

    private static String owner(String job) throws SQLException {
        try (Connection c = schema.connect();
             ResultSet rs = c.createStatement().executeQuery("select owner from jobs where id = '" + job + "'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = schema.connect();
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
