package io.proofline.abuse;

import io.proofline.engine.memory.MemoryBudget;
import io.proofline.service.circuits.KeyCache;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service the abuse suite attacks: one real server on a random port (CPU backend, embedded H2 in a temporary
 * data directory) shared by every family, so that Spring starts it once for the whole suite. Each family ends with
 * {@link #assertStillServesAndLeaksNothing()}: health is UP, a good job still proves and verifies, and no memory
 * reservation, unfinished job row, input file or temporary file is left behind. MockMvc reaches the same server's
 * chains where a family needs what a socket cannot give (a client address of its choosing).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=" + AbuseService.KEY_A + "," + AbuseService.KEY_B + "," + AbuseService.KEY_C,
        "proofline.security.admin-password=" + AbuseService.ADMIN_PASSWORD,
        "proofline.security.metrics-password=" + AbuseService.METRICS_PASSWORD,
        "proofline.security.requests-per-second=100000",
        "proofline.pipeline.synthesis-workers=1",
        "proofline.store.polling-interval=100ms",
        "proofline.memory.budget=1GB",
        "proofline.gpu.enabled=false",
        "proofline.console.demo.enabled=false"})
@AutoConfigureMockMvc
@Tag("slow")
public abstract class AbuseService {

    public static final String KEY_A = "abuse-key-a";
    public static final String KEY_B = "abuse-key-b";
    /** A key no family attacks with: the victim of floods, the prover of the closing good job. */
    public static final String KEY_C = "abuse-key-c";
    public static final String ADMIN_PASSWORD = "abuse-admin-password";
    public static final String METRICS_PASSWORD = "abuse-metrics-password";
    public static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    private static Path dataDir;

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) throws IOException {
        registry.add("proofline.store.data-dir", AbuseService::dataDir);
    }

    private static synchronized String dataDir() {
        try {
            if (dataDir == null) {
                dataDir = Files.createTempDirectory("proofline-abuse");
            }
            return dataDir.toString();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @LocalServerPort
    protected int port;
    @Autowired
    protected JdbcClient jdbc;
    @Autowired
    protected MemoryBudget budget;
    @Autowired
    protected KeyCache keys;

    protected Api api(String key) {
        return new Api(port, key);
    }

    /** Registers the mul3 circuit (bn128) for {@code key}; answers its id. */
    protected String registerMul3(String key) throws Exception {
        return api(key).registerCircuit(Map.of(
                "zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey")),
                "r1cs", Files.readAllBytes(MUL3.resolve("circuit.r1cs"))), Map.of("name", "mul3")).get("id").asString();
    }

    /** A one-partition job body of mul3's witness. */
    protected static String goodJob(String circuitId, String requestId) throws IOException {
        String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve("witness.wtns")));
        return "{\"circuitId\":\"" + circuitId + "\"" + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"")
                + ",\"partitions\":[{\"witness\":\"" + witness + "\"}]}";
    }

    /** Health UP, a good job proves with a proof our verifier accepts, and nothing is left behind. */
    protected void assertStillServesAndLeaksNothing() throws Exception {
        Api anonymous = api(null);
        Api.Response health = anonymous.get("/actuator/health");
        assertThat(health.status()).as(health.body()).isEqualTo(200);
        assertThat(health.json().get("status").asString()).isEqualTo("UP");

        Api client = api(KEY_C);
        String circuit = registerMul3(KEY_C);
        Api.Response submitted = client.postJson("/api/v1/jobs", goodJob(circuit, null));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
        JsonNode job = client.awaitJob(submitted.json().get("id").asString(), Duration.ofSeconds(60));
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        JsonNode proof = client.get("/api/v1/jobs/" + job.get("id").asString() + "/proof").json().get("proofs").get(0);
        assertThat(Groth16Verifier.verify(VerificationKeyJson.read(MUL3.resolve("verification_key.json")),
                PublicSignalsJson.parse(proof.get("publicSignals").toString(), "publicSignals"),
                ProofJson.parse(proof.get("proof").toString(), "proof")).valid()).isTrue();

        assertNothingLeaked();
    }

    /**
     * No unfinished job, no job input or temporary file, no memory reserved beyond the cached keys. A job is DONE
     * a moment before its runner lets go of its inputs and last reservation, so this waits a little for that.
     */
    protected void assertNothingLeaked() throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                checkNothingLeaked();
                return;
            } catch (AssertionError e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private void checkNothingLeaked() throws Exception {
        assertThat(jdbc.sql("select count(*) from jobs where status in ('QUEUED', 'RUNNING')").query(Long.class)
                .single()).as("unfinished jobs").isZero();
        Path data = Path.of(dataDir());
        try (Stream<Path> inputs = Files.list(data.resolve("jobs")); Stream<Path> tmp = Files.list(data.resolve("tmp"))) {
            assertThat(inputs.toList()).as("job input directories of finished jobs").isEmpty();
            assertThat(tmp.toList()).as("temporary files").isEmpty();
        }
        long cached = keys.cached().stream().mapToLong(KeyCache.CachedKey::bytes).sum();
        assertThat(budget.reserved()).as("bytes reserved beyond the cached proving keys").isEqualTo(cached);
    }
}
