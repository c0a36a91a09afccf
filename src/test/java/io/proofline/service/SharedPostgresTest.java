package io.proofline.service;

import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two instances share one PostgreSQL (127.0.0.1:5432, database {@code test}, a schema of its own per run) and one
 * data directory. The instance that claimed a job is killed mid-job; the other takes the job over when the lease
 * expires and finishes it, and each proof is stored once. Skipped, with a message, without a reachable PostgreSQL
 * ({@code PROOFLINE_TEST_PG_URL} overrides the URL).
 */
class SharedPostgresTest {

    static final String URL = System.getenv().getOrDefault("PROOFLINE_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    static String user;
    static final String SCHEMA = "proofline_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @BeforeAll
    static void database() {
        for (String candidate : new String[]{"postgres", "root"}) {
            try (Connection c = DriverManager.getConnection(URL, candidate, "")) {
                c.createStatement().execute("create schema " + SCHEMA);
                user = candidate;
                return;
            } catch (SQLException e) {
                // try the next user
            }
        }
        assumeTrue(false, "no PostgreSQL at " + URL + " (users postgres/root, trust auth): shared-database test skipped");
    }

    @AfterAll
    static void dropSchema() throws SQLException {
        if (user != null) {
            try (Connection c = DriverManager.getConnection(URL, user, "")) {
                c.createStatement().execute("drop schema " + SCHEMA + " cascade");
            }
        }
    }

    @Test
    void anotherInstanceFinishesTheJobOfAKilledOne() throws Exception {
        Path circuitDir = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-shared");
        Map<String, String> common = new HashMap<>(Map.of(
                "spring.datasource.url", URL + "?currentSchema=" + SCHEMA,
                "spring.datasource.username", user, "spring.datasource.password", "",
                "spring.flyway.schemas", SCHEMA,
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
            Api.Response registered = a.api().postMultipart("/api/v1/circuits",
                    Map.of("zkey", Files.readAllBytes(circuitDir.resolve("circuit.zkey"))), Map.of());
            assertThat(registered.status()).as(registered.body()).isEqualTo(201);
            String circuit = registered.json().get("id").asString();
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
        try (Connection c = DriverManager.getConnection(URL + "?currentSchema=" + SCHEMA, user, "");
             ResultSet rs = c.createStatement().executeQuery("select owner from jobs where id = '" + job + "'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(URL + "?currentSchema=" + SCHEMA, user, "");
             ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
