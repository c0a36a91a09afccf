package io.proofline.abuse;

import io.proofline.web.Api;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients racing to register one zkey with witness calculators of their own, and re-registering it with another:
 * one registration publishes (201), every other with a different wasm is a 409 naming the circuit, nothing is
 * replaced, and the published circuit computes and proves an input job with the wasm it was registered with; then
 * the service still serves and leaks nothing (no staging entry left in {@code data/tmp}).
 */
class RegistrationRaceTest extends AbuseService {

    static final Path RANGE = Path.of("src/test/resources/fixtures/bn128/range_compare");

    @Test
    void racingRegistrationsPublishOnceAndAnotherWasmIsA409() throws Exception {
        byte[] zkey = Files.readAllBytes(RANGE.resolve("circuit.zkey"));
        int n = 6;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(n);
        List<Api.Response> answers = new ArrayList<>();
        try {
            List<Future<Api.Response>> sent = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Api client = api(i % 2 == 0 ? KEY_A : KEY_B);
                byte[] wasm = wasmVariant("client-" + i);
                sent.add(threads.submit(() -> {
                    start.await();
                    return client.postMultipart("/api/v1/circuits", Map.of("zkey", zkey, "wasm", wasm),
                            Map.of("name", "race"));
                }));
            }
            start.countDown();
            for (Future<Api.Response> f : sent) {
                answers.add(f.get(3, TimeUnit.MINUTES));
            }
        } finally {
            threads.shutdownNow();
        }
        List<Api.Response> created = answers.stream().filter(r -> r.status() == 201).toList();
        assertThat(created).as(answers.toString()).hasSize(1);
        String id = created.getFirst().json().get("id").asString();
        assertThat(answers.stream().filter(r -> r.status() != 201)).as(answers.toString()).hasSize(n - 1)
                .allSatisfy(r -> {
                    assertThat(r.status()).as(r.body()).isEqualTo(409);
                    assertThat(r.json().get("field").asString()).isEqualTo("wasm");
                    assertThat(r.json().get("detail").asString())
                            .startsWith("circuit " + id + " is already registered with another wasm");
                });

        // the registering key's again with a new wasm: 409, the circuit unchanged; the zkey alone: the circuit
        assertThat(created.getFirst().json().get("hasWasm").asBoolean()).isTrue();
        Api owner = api(whoseCircuit(id));
        Api.Response again = owner.postMultipart("/api/v1/circuits",
                Map.of("zkey", zkey, "wasm", wasmVariant("a new version")), Map.of());
        assertThat(again.status()).as(again.body()).isEqualTo(409);
        Api.Response alone = owner.postMultipart("/api/v1/circuits", Map.of("zkey", zkey), Map.of());
        assertThat(alone.status()).as(alone.body()).isEqualTo(200);
        assertThat(alone.json().get("hasWasm").asBoolean()).isTrue();

        // what was published is whole: the wasm computes a witness for the zkey, and the proof verifies
        Api.Response job = owner.postJson("/api/v1/jobs", """
                {"circuitId":"%s","verify":true,"partitions":[{"input":%s}]}""".formatted(id,
                Files.readString(RANGE.resolve("input.json"))));
        assertThat(job.status()).as(job.body()).isEqualTo(202);
        JsonNode done = owner.awaitJob(job.json().get("id").asString(), Duration.ofMinutes(1));
        assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        assertThat(owner.get("/api/v1/circuits/" + id + "/verification-key").status()).isEqualTo(200);

        assertThat(owner.delete("/api/v1/circuits/" + id).status()).isEqualTo(204);
        assertStillServesAndLeaksNothing();
    }

    /** The key (A or B) that may use the circuit: the winner's; the refused key may not. */
    private String whoseCircuit(String id) throws Exception {
        boolean a = api(KEY_A).get("/api/v1/circuits/" + id).status() == 200;
        boolean b = api(KEY_B).get("/api/v1/circuits/" + id).status() == 200;
        assertThat(a ^ b).as("exactly one key holds the circuit (A: " + a + ", B: " + b + ")").isTrue();
        return a ? KEY_A : KEY_B;
    }

    /** range_compare's wasm with a custom section appended: other bytes, the same witness calculator. */
    private static byte[] wasmVariant(String label) throws Exception {
        byte[] name = "proofline-test".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = label.getBytes(StandardCharsets.US_ASCII);
        int size = 1 + name.length + payload.length;
        assertThat(size).as("one-byte LEB128 sizes").isLessThan(128);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Files.readAllBytes(RANGE.resolve("circuit.wasm")));
        out.write(0); // custom section
        out.write(size);
        out.write(name.length);
        out.write(name);
        out.write(payload);
        return out.toByteArray();
    }
}
