package io.proofline.abuse;

import io.proofline.web.Api;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One API key probing another's work: jobs, proofs, circuits and verification keys of another key are 404 (as if
 * they did not exist), listings hold one's own only, a requestId is one key's and reused for a different submission
 * is a 409, and the admin's console sees every key's jobs.
 */
class CrossKeyAccessTest extends AbuseService {

    @Test
    void anotherKeysJobsCircuitsAndProofsDoNotExistForIt() throws Exception {
        Api a = api(KEY_A);
        Api b = api(KEY_B);
        String circuit = registerMul3(KEY_A);

        for (String path : new String[]{"/api/v1/circuits/" + circuit, "/api/v1/circuits/" + circuit
                + "/verification-key"}) {
            assertNotFound(b.get(path), path);
        }
        assertThat(ids(b.get("/api/v1/circuits").json())).doesNotContain(circuit);
        assertThat(ids(a.get("/api/v1/circuits").json())).contains(circuit);
        assertNotFound(b.delete("/api/v1/circuits/" + circuit), "delete circuit");
        assertNotFound(b.postJson("/api/v1/verify", "{\"circuitId\":\"" + circuit
                + "\",\"proof\":{},\"publicSignals\":[]}"), "verify against the circuit");

        long rowsBefore = jobRows();
        assertNotFound(b.postJson("/api/v1/jobs", goodJob(circuit, "b-probe")), "submit on the circuit");
        assertThat(jobRows()).as("a refused submission leaves no row").isEqualTo(rowsBefore);

        Api.Response submitted = a.postJson("/api/v1/jobs", goodJob(circuit, "shared-id"));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
        String job = submitted.json().get("id").asString();
        a.awaitJob(job, Duration.ofSeconds(60));
        for (String path : new String[]{"/api/v1/jobs/" + job, "/api/v1/jobs/" + job + "/proof"}) {
            assertNotFound(b.get(path), path);
        }
        assertNotFound(b.delete("/api/v1/jobs/" + job), "cancel job");
        assertThat(ids(b.get("/api/v1/jobs?size=500").json().get("jobs"))).doesNotContain(job);
        assertThat(b.get("/api/v1/jobs?size=500").json().get("total").asLong())
                .isEqualTo(b.get("/api/v1/jobs?size=500").json().get("jobs").size());
        assertThat(ids(a.get("/api/v1/jobs?size=500").json().get("jobs"))).contains(job);
        assertThat(a.get("/api/v1/jobs/" + job + "/proof").status()).isEqualTo(200);

        // the console is the admin's: it sees every key's work
        Api console = api(null);
        String basic = "Basic " + Base64.getEncoder().encodeToString(("admin:" + ADMIN_PASSWORD).getBytes());
        Api.Response page = console.send(console.request("/console/jobs/" + job).header("Authorization", basic));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains(job);

        assertStillServesAndLeaksNothing();
    }

    @Test
    void aRequestIdIsOneKeysAndReusingItForAnotherSubmissionIsAConflict() throws Exception {
        Api a = api(KEY_A);
        Api b = api(KEY_B);
        String circuit = registerMul3(KEY_A);
        String body = goodJob(circuit, "replayed-id");

        Api.Response first = a.postJson("/api/v1/jobs", body);
        assertThat(first.status()).as(first.body()).isEqualTo(202);
        String job = first.json().get("id").asString();
        Api.Response replay = a.postJson("/api/v1/jobs", body);
        assertThat(replay.status()).as("the same submission again is a replay").isEqualTo(200);
        assertThat(replay.json().get("id").asString()).isEqualTo(job);

        long rowsBefore = jobRows();
        String different = body.replace("\"partitions\"", "\"verify\":false,\"partitions\"");
        Api.Response reused = a.postJson("/api/v1/jobs", different);
        assertThat(reused.status()).as(reused.body()).isEqualTo(409);
        assertThat(reused.json().get("field").asString()).isEqualTo("requestId");
        assertThat(reused.body()).doesNotContain("witness");
        assertThat(jobRows()).as("a conflicting reuse leaves no row").isEqualTo(rowsBefore);

        // B registering the same zkey gets the use of the circuit, and its requestIds are its own
        Api.Response registered = b.postMultipart("/api/v1/circuits", java.util.Map.of("zkey",
                java.nio.file.Files.readAllBytes(MUL3.resolve("circuit.zkey"))), java.util.Map.of());
        assertThat(registered.status()).as("new to B").isEqualTo(201);
        assertThat(registered.json().get("id").asString()).isEqualTo(circuit);
        Api.Response theirs = b.postJson("/api/v1/jobs", body);
        assertThat(theirs.status()).as(theirs.body()).isEqualTo(202);
        assertThat(theirs.json().get("id").asString()).isNotEqualTo(job);
        assertNotFound(b.get("/api/v1/jobs/" + job), "A's job with the shared requestId");
        b.awaitJob(theirs.json().get("id").asString(), Duration.ofSeconds(60));
        a.awaitJob(job, Duration.ofSeconds(60));

        // B giving the circuit up leaves it to A
        assertThat(b.delete("/api/v1/circuits/" + circuit).status()).isEqualTo(204);
        assertNotFound(b.get("/api/v1/circuits/" + circuit), "a circuit B gave up");
        assertThat(a.get("/api/v1/circuits/" + circuit).status()).isEqualTo(200);

        // many concurrent replays of one requestId make one job
        String racedBody = goodJob(circuit, "raced-id");
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            var answers = new java.util.ArrayList<java.util.concurrent.Future<Api.Response>>();
            for (int i = 0; i < 16; i++) {
                answers.add(pool.submit(() -> a.postJson("/api/v1/jobs", racedBody)));
            }
            java.util.Set<String> ids = new java.util.HashSet<>();
            for (var answer : answers) {
                Api.Response r = answer.get();
                assertThat(r.status()).as(r.body()).isIn(200, 202);
                ids.add(r.json().get("id").asString());
            }
            assertThat(ids).hasSize(1);
            a.awaitJob(ids.iterator().next(), Duration.ofSeconds(60));
        } finally {
            pool.shutdownNow();
        }

        assertStillServesAndLeaksNothing();
    }

    private long jobRows() {
        return jdbc.sql("select count(*) from jobs").query(Long.class).single();
    }

    private static void assertNotFound(Api.Response r, String what) {
        assertThat(r.status()).as(what + ": " + r.body()).isEqualTo(404);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
    }

    private static java.util.List<String> ids(JsonNode array) {
        return array.valueStream().map(n -> n.get("id").asString()).toList();
    }
}
