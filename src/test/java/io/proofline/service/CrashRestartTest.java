package io.proofline.service;

import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crash without a culprit (issue #33): nothing accepted is lost across {@code kill -9}, and deaths that no job caused
 * fail no job. A child service on an H2 file database runs four jobs; it is killed from outside while they run, and
 * again, twice, while the restarted instance runs them (one at a time: after the first death they are suspects). Each
 * restart on the same data directory takes them over; all four end DONE with proofs that verify. Before, every death
 * was charged to every job running, and a job running in three of them was FAILED as a poison job.
 */
@Tag("slow")
class CrashRestartTest {

    static final int JOBS = 4;
    static final int PARTITIONS = 3;
    static final int KILLS = 3;

    @Test
    void fourJobsSurviveThreeKillsFromOutsideAndAllEndDone() throws Exception {
        Path circuitDir = DevCircuit.bn128(4000);
        Path data = Files.createTempDirectory("proofline-crash");
        Map<String, String> props = Map.of("proofline.store.data-dir", data.toString(),
                "proofline.pipeline.synthesis-workers", "1",
                "proofline.store.heartbeat-interval", "1s", "proofline.store.missed-heartbeats", "4",
                "proofline.store.polling-interval", "300ms", "proofline.gpu.enabled", "false",
                "proofline.console.demo.enabled", "false");
        List<String> jobs = new ArrayList<>();
        int runsAtKill = 0;
        for (int kill = 1; kill <= KILLS; kill++) {
            try (ServiceProcess instance = ServiceProcess.start("crash-" + kill, props)) {
                Api api = instance.api();
                if (jobs.isEmpty()) {
                    String circuit = api.registerCircuit(Map.of("zkey", Files.readAllBytes(circuitDir.resolve(
                            "circuit.zkey"))), Map.of()).get("id").asString();
                    for (int j = 0; j < JOBS; j++) {
                        jobs.add(PoisonJobAcrossRestartTest.submit(api, circuit, circuitDir, PARTITIONS, "NORMAL"));
                    }
                    for (String job : jobs) {
                        awaitStatus(api, job, "RUNNING", Duration.ofSeconds(60));
                    }
                } else {
                    awaitNewRun(api, jobs, runsAtKill, Duration.ofMinutes(2));
                }
                runsAtKill = runs(api, jobs);
                instance.kill();
            }
        }
        try (ServiceProcess last = ServiceProcess.start("crash-" + (KILLS + 1), props)) {
            Api api = last.api();
            for (String id : jobs) {
                JsonNode job = api.awaitJob(id, Duration.ofMinutes(5));
                assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
                PoisonJobAcrossRestartTest.assertVerified(api, id, circuitDir, PARTITIONS);
            }
            assertThat(runs(api, jobs)).as("runs cut off by the kills, counted as attempts")
                    .isGreaterThanOrEqualTo(JOBS + KILLS - 1);
            PoisonJobAcrossRestartTest.assertNothingLeft(data);
        }
    }

    private static int attempts(Api api, String job) {
        try {
            return api.get("/api/v1/jobs/" + job).json().get("attempts").asInt();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Waits until a run of one of {@code jobs} started after the last kill (a suspect's, after a restart). */
    private static void awaitNewRun(Api api, List<String> jobs, int runsAtKill, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (runs(api, jobs) <= runsAtKill) {
            if (System.nanoTime() > end) {
                throw new AssertionError("none of " + jobs + " ran again within " + timeout);
            }
            Thread.sleep(100);
        }
    }

    /** The runs of the jobs so far: each claim counts an attempt, and a run cut off by a kill stays counted. */
    private static int runs(Api api, List<String> jobs) {
        return jobs.stream().mapToInt(id -> attempts(api, id)).sum();
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
