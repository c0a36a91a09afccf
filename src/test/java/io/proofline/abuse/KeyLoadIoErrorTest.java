package io.proofline.abuse;

import io.proofline.web.Api;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Abuse family "an injected IOException at key load" (issue #19): the stored key of a registered circuit cannot be
 * read when a job's partition first needs it (its file is replaced by a directory, so reading it fails with an
 * {@code IOException}). The job is not failed: it goes back to the queue with a backoff, carrying the reason, and
 * once the key can be read again it proves; the service stays healthy and nothing is left reserved.
 */
class KeyLoadIoErrorTest extends AbuseService {

    @Value("${proofline.store.data-dir}")
    Path dataDir;

    @Test
    void anIoErrorReadingTheKeyRequeuesTheJobWhichProvesOnceTheKeyIsReadableAgain() throws Exception {
        String circuit = registerMul3(KEY_A);
        // A key still cached from an earlier job would not be read again.
        keys.evict(circuit);
        Path zkey = dataDir.resolve("circuits").resolve(circuit).resolve("circuit.zkey");
        Path aside = zkey.resolveSibling("circuit.zkey.aside");
        Files.move(zkey, aside);
        Files.createDirectory(zkey);
        String job;
        try {
            Api client = api(KEY_A);
            Api.Response submitted = client.postJson("/api/v1/jobs", goodJob(circuit, null));
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
            job = submitted.json().get("id").asString();
            awaitTransientFailure(job);
            JsonNode status = client.get("/api/v1/jobs/" + job).json();
            assertThat(status.get("status").asString()).as(status.toString()).isIn("QUEUED", "RUNNING");
        } finally {
            Files.delete(zkey);
            Files.move(aside, zkey);
        }
        JsonNode done = api(KEY_A).awaitJob(job, Duration.ofSeconds(90));
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertStillServesAndLeaksNothing();
    }

    /** Waits until the job's run ended with the transient failure and the job went back to the queue. */
    private void awaitTransientFailure(String job) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < end) {
            var row = jdbc.sql("select status, retries, error from jobs where id = ?").param(job)
                    .query((rs, n) -> new Object[] {rs.getString(1), rs.getInt(2), rs.getString(3)}).single();
            assertThat((String) row[0]).as("the job must not end: %s", row[2]).isIn("QUEUED", "RUNNING");
            if ((int) row[1] >= 1) {
                assertThat((String) row[2]).contains("cannot read the key of circuit " + circuit(job));
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("job " + job + " never failed transiently");
    }

    private String circuit(String job) {
        return jdbc.sql("select circuit_id from jobs where id = ?").param(job).query(String.class).single();
    }
}
