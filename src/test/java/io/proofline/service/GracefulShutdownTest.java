package io.proofline.service;

import io.proofline.ProoflineApplication;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Graceful shutdown keeps its promise with the embedded store: the service (CPU backend, embedded H2 in a temporary
 * data directory) is closed while a job of several seconds runs, all its partitions in flight; the engine gives it its grace, the job runner
 * writes its result, and only then does the store close — the job is DONE in the database with its proofs, and
 * nothing logged "Database is already closed".
 */
@Tag("slow")
@ExtendWith(OutputCaptureExtension.class)
class GracefulShutdownTest {

    private static final String KEY = "graceful-key";

    @Test
    void aJobRunningAtShutdownFinishesAndIsStoredBeforeTheDatabaseCloses(CapturedOutput output) throws Exception {
        Path circuitDir = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-graceful");
        // As arguments: they outrank application.yml (SpringApplicationBuilder.properties would not).
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ProoflineApplication.class).run(
                "--server.port=0",
                "--proofline.store.data-dir=" + data,
                "--proofline.security.api-keys=" + KEY,
                "--proofline.gpu.enabled=false",
                "--proofline.console.demo.enabled=false",
                "--proofline.pipeline.synthesis-workers=6",
                "--proofline.pipeline.shutdown-grace=120s",
                "--proofline.store.polling-interval=200ms",
                "--proofline.memory.budget=512MB");
        String job;
        Instant closing = null;
        try {
            Api api = new Api(Integer.parseInt(context.getEnvironment().getProperty("local.server.port")), KEY);
            String circuit = api.registerCircuit(
                    Map.of("zkey", Files.readAllBytes(circuitDir.resolve("circuit.zkey"))), Map.of()).get("id").asString();
            String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuitDir.resolve("witness.wtns")));
            // As many partitions as synthesis workers: all are admitted at once, so none is left queued (a job with
            // a queued partition goes back to the queue at shutdown instead of finishing).
            String partitions = ("{\"witness\":\"" + w + "\"},").repeat(5) + "{\"witness\":\"" + w + "\"}";
            Api.Response submitted = api.postJson("/api/v1/jobs",
                    "{\"circuitId\":\"%s\",\"partitions\":[%s]}".formatted(circuit, partitions));
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
            job = submitted.json().get("id").asString();
            awaitInFlight(api, job);
            closing = Instant.now();
        } finally {
            context.close();
        }

        assertThat(output.getAll()).contains("shutting down: intake stopped");
        assertThat(output.getAll()).doesNotContain("Database is already closed");
        String url = "jdbc:h2:file:" + data.resolve("db/proofline") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE";
        try (Connection db = DriverManager.getConnection(url, "sa", "");
             PreparedStatement q = db.prepareStatement("select status, error, finished_at from jobs where id = ?")) {
            q.setString(1, job);
            try (ResultSet rs = q.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("status")).as(rs.getString("error")).isEqualTo("DONE");
                assertThat(rs.getObject("finished_at", java.time.OffsetDateTime.class).toInstant())
                        .as("the job finished during the shutdown, not before it").isAfter(closing);
            }
            try (PreparedStatement proofs = db.prepareStatement("select count(*) from proofs where job_id = ?")) {
                proofs.setString(1, job);
                try (ResultSet rs = proofs.executeQuery()) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(6);
                }
            }
        }
    }

    /** Waits until every partition of the job has left the queue, so that the shutdown finds it in flight. */
    private static void awaitInFlight(Api api, String job) throws Exception {
        long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < end) {
            JsonNode status = api.get("/api/v1/jobs/" + job).json();
            assertThat(status.get("status").asString()).as("the job must still run when the service is closed")
                    .isIn("QUEUED", "RUNNING");
            boolean queued = false;
            for (JsonNode p : status.get("partitions")) {
                queued |= p.get("stage").asString().equals("QUEUED");
            }
            if (status.get("status").asString().equals("RUNNING") && !queued) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("job " + job + " never had all its partitions in flight");
    }
}
