package io.proofline.web;

import io.proofline.web.security.Credentials;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-tenant limits over HTTP (issue #33, docs/API.md "Per-tenant limits"): a key configured under
 * {@code proofline.tenants.keys.<its name>} is answered 403 for a priority it may not use and 429 for a job beyond its
 * queue share, a circuit beyond its max-circuits and a zkey beyond its max-stored-bytes, each a problem+json naming
 * the limit, its value and the key's usage; a key with the default limits goes on meanwhile, CRITICAL included.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=limited-key,small-key,free-key",
        "proofline.security.admin-password=admin-pw",
        "proofline.store.polling-interval=200ms",
        "proofline.memory.budget=1GB",
        "management.defaults.metrics.export.enabled=true"})
@Tag("slow")
class TenantLimitsApiTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    static final Path POSEIDON = Path.of("src/test/resources/fixtures/bn128/poseidon_hash");

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void limits(DynamicPropertyRegistry registry) throws Exception {
        registry.add("proofline.store.data-dir", Files.createTempDirectory("proofline-tenant-limits")::toString);
        String limited = "proofline.tenants.keys." + Credentials.keyId("limited-key");
        registry.add(limited + ".priorities", () -> "LOW,NORMAL");
        registry.add(limited + ".queue-share", () -> "0.01");
        registry.add(limited + ".max-circuits", () -> "1");
        registry.add("proofline.tenants.keys." + Credentials.keyId("small-key") + ".max-stored-bytes", () -> "1KB");
    }

    @Test
    void eachLimitIsAnsweredNamingItWhileAnotherKeyGoesOn() throws Exception {
        Api limited = new Api(port, "limited-key");
        Api free = new Api(port, "free-key");
        byte[] zkey = Files.readAllBytes(MUL3.resolve("circuit.zkey"));
        String circuit = free.registerCircuit(Map.of("zkey", zkey), Map.of()).get("id").asString();
        assertThat(limited.registerCircuit(Map.of("zkey", zkey), Map.of()).get("id").asString()).isEqualTo(circuit);
        String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve("witness.wtns")));

        Api.Response critical = submit(limited, circuit, witness, "CRITICAL", 1);
        JsonNode forbidden = assertLimit(critical, 403, "priorities", "this API key may not submit at CRITICAL");
        assertThat(forbidden.get("limitValue").toString()).isEqualTo("[\"LOW\",\"NORMAL\"]");
        assertThat(forbidden.get("usage").asString()).isEqualTo("CRITICAL");
        assertThat(critical.headers().firstValue("Retry-After")).isEmpty();

        // a hundredth of the queue's 1,024 partitions: 10
        Api.Response beyondShare = submit(limited, circuit, witness, "LOW", 11);
        JsonNode share = assertLimit(beyondShare, 429, "queue-share", "queue-share 0.01 of 1024");
        assertThat(share.get("limitValue").asInt()).isEqualTo(10);
        assertThat(beyondShare.headers().firstValue("Retry-After")).isPresent();

        Api.Response secondCircuit = limited.postMultipart("/api/v1/circuits",
                Map.of("zkey", Files.readAllBytes(POSEIDON.resolve("circuit.zkey"))), Map.of());
        JsonNode circuits = assertLimit(secondCircuit, 429, "max-circuits", "max-circuits");
        assertThat(circuits.get("limitValue").asInt()).isEqualTo(1);
        assertThat(circuits.get("usage").asInt()).isEqualTo(1);

        Api.Response stored = new Api(port, "small-key").postMultipart("/api/v1/circuits", Map.of("zkey", zkey),
                Map.of());
        JsonNode bytes = assertLimit(stored, 429, "max-stored-bytes", "max-stored-bytes");
        assertThat(bytes.get("limitValue").asLong()).isEqualTo(1024);
        assertThat(bytes.get("usage").asLong()).isZero();

        Api.Response within = submit(limited, circuit, witness, "NORMAL", 10);
        assertThat(within.status()).as(within.body()).isEqualTo(202);
        Api.Response other = submit(free, circuit, witness, "CRITICAL", 20);
        assertThat(other.status()).as(other.body()).isEqualTo(202);
        for (Api.Response r : new Api.Response[]{within, other}) {
            String id = r.json().get("id").asString();
            Api owner = r == within ? limited : free;
            assertThat(owner.awaitJob(id, Duration.ofMinutes(2)).get("status").asString()).isEqualTo("DONE");
        }

        // the gauges of a tenant appear once it has used the service (the scrape after it is first seen)
        String basic = "Basic " + Base64.getEncoder().encodeToString("admin:admin-pw".getBytes());
        Api anonymous = new Api(port, null);
        anonymous.send(anonymous.request("/actuator/prometheus").header("Authorization", basic));
        String metrics = anonymous.send(anonymous.request("/actuator/prometheus").header("Authorization", basic))
                .body();
        String freeName = Credentials.keyId("free-key");
        assertThat(metrics).contains("proofline_tenant_circuits{tenant=\"" + freeName + "\"} 1.0")
                .contains("proofline_tenant_queue_share_partitions{tenant=\"" + Credentials.keyId("limited-key")
                        + "\"} 10.0")
                .contains("proofline_tenant_queued_partitions{tenant=\"" + freeName + "\"}")
                .contains("proofline_tenant_inflight_partitions{tenant=\"" + freeName + "\"}")
                .contains("proofline_tenant_stored_bytes{tenant=\"" + freeName + "\"}")
                .contains("proofline_tenant_jobs_in_flight{tenant=\"" + freeName + "\"}")
                .contains("proofline_tenant_unproved_partitions{tenant=\"" + freeName + "\"}")
                .contains("proofline_tenant_refusals_total{limit=\"priorities\",tenant=\""
                        + Credentials.keyId("limited-key") + "\"} 1.0")
                .contains("proofline_tenant_refusals_total{limit=\"max-stored-bytes\",tenant=\""
                        + Credentials.keyId("small-key") + "\"} 1.0");
    }

    private static Api.Response submit(Api api, String circuit, String witness, String priority, int partitions)
            throws Exception {
        String parts = String.join(",", Collections.nCopies(partitions, "{\"witness\":\"" + witness + "\"}"));
        return api.postJson("/api/v1/jobs", "{\"circuitId\":\"%s\",\"priority\":\"%s\",\"partitions\":[%s]}"
                .formatted(circuit, priority, parts));
    }

    private static JsonNode assertLimit(Api.Response r, int status, String limit, String detail) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                t -> assertThat(t).startsWith("application/problem+json"));
        JsonNode problem = r.json();
        assertThat(problem.get("limit").asString()).as(r.body()).isEqualTo(limit);
        assertThat(problem.get("detail").asString()).as(r.body()).contains(detail);
        assertThat(problem.has("usage")).as(r.body()).isTrue();
        return problem;
    }
}
