package io.proofline.container;

import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTTP steps the container tests share: register a dev circuit, submit a job of its witness, check the proofs. */
final class ContainerJobs {

    private ContainerJobs() {
    }

    static String register(Api api, Path circuit) throws Exception {
        return api.registerCircuit(Map.of("zkey", Files.readAllBytes(circuit.resolve("circuit.zkey"))), Map.of())
                .get("id").asString();
    }

    /** A job of {@code partitions} copies of the circuit's witness; answers its id (the service must accept it). */
    static String submit(Api api, String circuitId, Path circuit, int partitions) throws Exception {
        Api.Response r = api.postJson("/api/v1/jobs", body(circuitId, circuit, partitions));
        assertThat(r.status()).as(r.body()).isEqualTo(202);
        return r.json().get("id").asString();
    }

    static String body(String circuitId, Path circuit, int partitions) throws Exception {
        String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuit.resolve("witness.wtns")));
        return "{\"circuitId\":\"%s\",\"partitions\":[%s]}".formatted(circuitId,
                String.join(",", Collections.nCopies(partitions, "{\"witness\":\"" + w + "\"}")));
    }

    /** Waits for the job to end, then checks that it is DONE with {@code partitions} proofs that verify. */
    static void assertDoneAndVerified(Api api, String job, Path circuit, int partitions, Duration timeout)
            throws Exception {
        JsonNode status = api.awaitJob(job, timeout);
        assertThat(status.get("status").asString()).as(status.toString()).isEqualTo("DONE");
        JsonNode proofs = api.get("/api/v1/jobs/" + job + "/proof").json().get("proofs");
        assertThat(proofs).hasSize(partitions);
        var vk = VerificationKeyJson.read(circuit.resolve("verification_key.json"));
        for (JsonNode p : proofs) {
            assertThat(Groth16Verifier.verify(vk,
                    PublicSignalsJson.parse(p.get("publicSignals").toString(), "public"),
                    ProofJson.parse(p.get("proof").toString(), "proof")).valid()).as("proof of " + job).isTrue();
        }
    }

    /** Waits until the job is RUNNING (a partition taken by a worker), so that what follows finds it mid-flight. */
    static void awaitRunning(Api api, String job, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            String status = api.get("/api/v1/jobs/" + job).json().get("status").asString();
            assertThat(status).as("job " + job + " must still run").isIn("QUEUED", "RUNNING");
            if (status.equals("RUNNING")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("job " + job + " did not start within " + timeout);
    }

    static String status(Api api, String job) throws Exception {
        return api.get("/api/v1/jobs/" + job).json().get("status").asString();
    }
}
