package io.proofline.abuse;

import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.service.config.DeviceBackends;
import io.proofline.service.FaultyGpuBackend;
import io.proofline.service.circuits.KeyCache;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Abuse family "a GPU backend whose initialisation fails and one that throws a sticky error" (issue #19): the service
 * runs with two GPU devices played by {@link FaultyGpuBackend} — {@code gpu0} cannot be opened, {@code gpu1} breaks
 * its context with a sticky error on its first proof — and the CPU fallback. Every job still ends DONE with proofs
 * that verify, each bad device's breaker is open after a single fault (not one per job), health stays UP (the
 * fallback can take work), and no reservation, unfinished row or file is left. Its own context and data directory:
 * the devices differ from the shared abuse service's.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=" + GpuBackendFaultsAbuseTest.KEY,
        "proofline.pipeline.synthesis-workers=1",
        "proofline.store.polling-interval=100ms",
        "proofline.memory.budget=1GB",
        "proofline.gpu.enabled=false",
        // one prove start per device at a time: each bad device sees exactly one partition before its breaker opens
        "proofline.gpu.workers-per-device=1",
        "proofline.console.demo.enabled=false"})
@Tag("slow")
class GpuBackendFaultsAbuseTest {

    static final String KEY = "gpu-abuse-key";
    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    static final FaultyGpuBackend NEVER_OPENS = new FaultyGpuBackend();
    static final FaultyGpuBackend STICKY = new FaultyGpuBackend();

    static {
        NEVER_OPENS.failingOpens.set(Integer.MAX_VALUE);
        STICKY.stickyStarts.set(1);
    }

    /** The faulty GPUs and the CPU fallback, in place of what the GPU settings would assemble. */
    @TestConfiguration(proxyBeanMethods = false)
    static class FaultyDevices {
        @Bean
        @Primary
        DeviceBackends faultyDeviceBackends() {
            Map<String, ProverBackend> byDevice = new LinkedHashMap<>();
            byDevice.put("gpu0", NEVER_OPENS);
            byDevice.put("gpu1", STICKY);
            byDevice.put("cpu", new CpuProverBackend());
            List<ProvingDevice> devices = new ArrayList<>();
            byDevice.forEach((id, backend) -> devices.add(new BackendDevice(id, backend, id.equals("cpu"))));
            return new DeviceBackends(devices, byDevice);
        }
    }

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) throws Exception {
        Path dir = Files.createTempDirectory("proofline-gpu-abuse");
        registry.add("proofline.store.data-dir", dir::toString);
    }

    @LocalServerPort
    int port;
    @Value("${proofline.store.data-dir}")
    Path dataDir;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    MemoryBudget budget;
    @Autowired
    KeyCache keys;
    @Autowired
    ProvingEngine engine;

    @Test
    void jobsProveDespiteAGpuThatCannotBeOpenedAndOneWithAStickyErrorAndTheServiceStaysHealthy() throws Exception {
        Api api = new Api(port, KEY);
        String circuit = api.registerCircuit(Map.of(
                "zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey"))), Map.of("name", "mul3")).get("id").asString();
        String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve("witness.wtns")));
        String body = "{\"circuitId\":\"" + circuit + "\",\"partitions\":[{\"witness\":\"" + witness + "\"},"
                + "{\"witness\":\"" + witness + "\"}]}";
        for (int i = 0; i < 4; i++) {
            Api.Response submitted = api.postJson("/api/v1/jobs", body);
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
            JsonNode job = api.awaitJob(submitted.json().get("id").asString(), Duration.ofSeconds(60));
            assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
            for (JsonNode p : job.get("partitions")) {
                assertThat(p.get("device").asString()).as(job.toString()).isEqualTo("cpu");
            }
            assertProofsVerify(api, job.get("id").asString());
        }

        assertThat(NEVER_OPENS.events).as("one failed open opened the breaker").containsExactly("open failed");
        assertThat(STICKY.events).as("one sticky fault opened the breaker").containsExactly("opened", "sticky fault");
        assertThat(breaker("gpu0")).isEqualTo("OPEN");
        assertThat(breaker("gpu1")).isEqualTo("OPEN");
        assertThat(breaker("cpu")).isEqualTo("CLOSED");

        Api.Response health = new Api(port, null).get("/actuator/health");
        assertThat(health.status()).as(health.body()).isEqualTo(200);
        assertThat(health.json().get("status").asString()).isEqualTo("UP");
        assertNothingLeaked();
    }

    private String breaker(String device) {
        return engine.snapshot().devices().stream().filter(d -> d.id().equals(device)).findFirst()
                .map(DeviceFigures::breakerState).orElseThrow();
    }

    private static void assertProofsVerify(Api api, String job) throws Exception {
        for (JsonNode proof : api.get("/api/v1/jobs/" + job + "/proof").json().get("proofs")) {
            assertThat(Groth16Verifier.verify(VerificationKeyJson.read(MUL3.resolve("verification_key.json")),
                    PublicSignalsJson.parse(proof.get("publicSignals").toString(), "publicSignals"),
                    ProofJson.parse(proof.get("proof").toString(), "proof")).valid()).isTrue();
        }
    }

    /** No unfinished job, no job input or temporary file, nothing reserved beyond the cached keys (waits a little). */
    private void assertNothingLeaked() throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                assertThat(jdbc.sql("select count(*) from jobs where status in ('QUEUED', 'RUNNING')")
                        .query(Long.class).single()).as("unfinished jobs").isZero();
                try (Stream<Path> inputs = Files.list(dataDir.resolve("jobs"));
                     Stream<Path> tmp = Files.list(dataDir.resolve("tmp"))) {
                    assertThat(inputs.toList()).as("job input directories").isEmpty();
                    assertThat(tmp.toList()).as("temporary files").isEmpty();
                }
                long cached = keys.cached().stream().mapToLong(KeyCache.CachedKey::bytes).sum();
                assertThat(budget.reserved()).as("bytes reserved beyond the cached keys").isEqualTo(cached);
                return;
            } catch (AssertionError e) {
                if (System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }
}
