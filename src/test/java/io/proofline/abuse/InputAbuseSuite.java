package io.proofline.abuse;

import io.proofline.engine.memory.MemoryBudget;
import io.proofline.service.circuits.KeyCache;
import io.proofline.web.Api;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The untrusted-input families of the abuse suite (issue #19): each family is a subclass, and all share this one
 * Spring configuration, so one service (cached context, on a real port, CPU backend, tight limits so that each abuse
 * is quick) takes every family in turn. After each abuse the service must still answer health UP and prove a good
 * job, with nothing reserved, no upload left in {@code data/tmp} and no row for what was refused.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=" + InputAbuseSuite.KEY,
        "proofline.security.requests-per-second=10000",
        "proofline.pipeline.synthesis-workers=1",
        "proofline.store.max-circuit-size=4MB",
        "proofline.store.max-job-size=3MB",
        "proofline.store.body-read-timeout=2s",
        "proofline.store.polling-interval=200ms",
        "proofline.memory.budget=1GB",
        "proofline.witness.timeout=2s",
        "proofline.witness.load-timeout=2s",
        "proofline.witness.max-memory=16MB",
        "proofline.witness.max-log=64KB",
        "proofline.console.demo.enabled=false"})
@Tag("slow")
abstract class InputAbuseSuite {

    static final String KEY = "abuse-key";
    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    static final Duration QUICK = Duration.ofSeconds(20);
    private static final Path DATA;

    static {
        try {
            DATA = Files.createTempDirectory("proofline-abuse");
        } catch (java.io.IOException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) {
        registry.add("proofline.store.data-dir", DATA::toString);
    }

    @LocalServerPort
    int port;
    @Autowired
    MemoryBudget budget;
    @Autowired
    KeyCache keys;
    Api api;

    @BeforeEach
    void client() {
        api = new Api(port, KEY);
    }

    /** Health UP, a good job proved and verified, nothing reserved, no upload left behind. */
    void assertServiceStillServes() throws Exception {
        assertThat(new Api(port, null).get("/actuator/health").json().get("status").asString()).isEqualTo("UP");
        String circuit = api.registerCircuit(
                Map.of("zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey"))), Map.of("name", "mul3")).get("id").asString();
        String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve("witness.wtns")));
        Api.Response submitted = api.postJson("/api/v1/jobs", """
                {"circuitId":"%s","verify":true,"partitions":[{"witness":"%s"}]}""".formatted(circuit, witness));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
        JsonNode job = api.awaitJob(submitted.json().get("id").asString(), Duration.ofMinutes(1));
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        keys.cached().forEach(k -> keys.evict(k.circuitId())); // cached keys hold budget by design; the rest leaked
        assertThat(budget.reserved()).as("bytes still reserved after the job, its key evicted").isZero();
        try (Stream<Path> left = Files.list(DATA.resolve("tmp"))) {
            assertThat(left.toList()).as("uploads left in data/tmp").isEmpty();
        }
    }

    /** What is in {@code data/tmp} now: registrations and job submissions being staged. */
    static java.util.List<Path> staged() throws java.io.IOException {
        try (Stream<Path> entries = Files.list(DATA.resolve("tmp"))) {
            return entries.toList();
        }
    }

    /** What is in {@code data/jobs} now: the inputs of jobs not yet finished. */
    static java.util.List<Path> jobInputs() throws java.io.IOException {
        try (Stream<Path> entries = Files.list(DATA.resolve("jobs"))) {
            return entries.toList();
        }
    }

    /** The circuits registered now (their ids). */
    Stream<String> circuitIds() throws Exception {
        JsonNode list = api.get("/api/v1/circuits").json();
        JsonNode items = list.isArray() ? list : list.get("circuits");
        return items.valueStream().map(c -> c.get("id").asString());
    }
}
