package io.proofline.service;

import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Graceful shutdown keeps the delivery promise with the embedded store, through the real signal path: a service
 * process (CPU backend, embedded H2 in a temporary data directory) gets SIGTERM while a job of several seconds runs,
 * all its partitions in flight. The engine gives them their grace, and the job runner stores the outcome before the
 * store closes: the job is DONE in the database when the process has exited — or, had the grace run out, handed back
 * QUEUED and done by the next process. Never left RUNNING with a dead run, never FAILED, and nothing logged "Database is
 * already closed".
 */
@Tag("slow")
class GracefulShutdownTest {

    private static final int PARTITIONS = 6;

    @Test
    void aJobRunningAtSigtermIsStoredDoneOrHandedBackAndDoneAfterRestart() throws Exception {
        Path circuitDir = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-graceful");
        Map<String, String> props = Map.of("proofline.store.data-dir", data.toString(),
                "proofline.gpu.enabled", "false", "proofline.console.demo.enabled", "false",
                "proofline.pipeline.synthesis-workers", "" + PARTITIONS,
                "proofline.pipeline.shutdown-grace", "120s", "proofline.store.polling-interval", "200ms");
        String job;
        String log;
        try (ServiceProcess service = ServiceProcess.start("graceful", props)) {
            Api api = service.api();
            String circuit = api.registerCircuit(Map.of("zkey", Files.readAllBytes(circuitDir.resolve(
                    "circuit.zkey"))), Map.of()).get("id").asString();
            // As many partitions as synthesis workers: all are admitted at once, so none is left queued (a job with
            // a queued partition goes back to the queue at shutdown instead of finishing).
            job = PoisonJobAcrossRestartTest.submit(api, circuit, circuitDir, PARTITIONS, "NORMAL");
            awaitInFlight(api, job);
            int status = service.terminate(Duration.ofMinutes(4));
            assertThat(status).as("exit status after SIGTERM (143: the JVM's answer to the signal)")
                    .isIn(0, 143);
            log = service.log();
        }
        assertThat(log).contains("shutting down: intake stopped");
        assertThat(log).doesNotContain("Database is already closed");

        String stored = storedStatus(data, job);
        assertThat(stored).as("DONE during the shutdown, or handed back for the next start").isIn("DONE", "QUEUED");
        if (stored.equals("QUEUED")) {
            try (ServiceProcess next = ServiceProcess.start("graceful-restart", props)) {
                JsonNode done = next.api().awaitJob(job, Duration.ofMinutes(3));
                assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
            }
            stored = storedStatus(data, job);
        }
        assertThat(stored).isEqualTo("DONE");
        assertThat(proofsStored(data, job)).isEqualTo(PARTITIONS);
    }

    /** Waits until every partition of the job has left the queue, so that the shutdown finds it in flight. */
    private static void awaitInFlight(Api api, String job) throws Exception {
        long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < end) {
            JsonNode status = api.get("/api/v1/jobs/" + job).json();
            assertThat(status.get("status").asString()).as("the job must still run when SIGTERM comes")
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

    private static Connection database(Path data) throws Exception {
        return DriverManager.getConnection("jdbc:h2:file:" + data.resolve("db/proofline")
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE", "sa", "");
    }

    private static String storedStatus(Path data, String job) throws Exception {
        try (Connection db = database(data);
             PreparedStatement q = db.prepareStatement("select status, error from jobs where id = ?")) {
            q.setString(1, job);
            try (ResultSet rs = q.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("status")).as(rs.getString("error")).isNotIn("FAILED", "CANCELLED");
                return rs.getString("status");
            }
        }
    }

    private static int proofsStored(Path data, String job) throws Exception {
        try (Connection db = database(data);
             PreparedStatement q = db.prepareStatement("select count(*) from proofs where job_id = ?")) {
            q.setString(1, job);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
