package io.proofline.abuse;

import io.proofline.web.Api;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Number strings of a million digits (BigInteger's parser is quadratic) and an exponent that would expand to a
 * billion digits, in a job's circuit input and in a verification's public signals: each a quick 4xx naming the bound,
 * no job created; then the service still serves.
 */
class HugeDigitsTest extends InputAbuseSuite {

    static final Path RANGE = Path.of("src/test/resources/fixtures/bn128/range_compare");

    @Test
    void hugeNumbersAreRefusedAtOnce() throws Exception {
        String circuit = api.registerCircuit(Map.of(
                "zkey", Files.readAllBytes(RANGE.resolve("circuit.zkey")),
                "wasm", Files.readAllBytes(RANGE.resolve("circuit.wasm"))), Map.of("name", "range")).get("id").asString();
        long jobsBefore = api.get("/api/v1/jobs").json().get("total").asLong();

        String digits = "has more than 80 decimal (66 hex) digits";
        // an input's numbers are read exactly, token by token: 1e999999999 is a billion digits, not a double; a string
        // of a million digits is past the job's read constraints before the input's own check (JsonReadLimits)
        Map<String, String> refusals = Map.of("\"" + "9".repeat(1_000_000) + "\"", "exceeds the maximum allowed (1024",
                "\"" + "9".repeat(200) + "\"", digits, "\"0x" + "f".repeat(67) + "\"", digits, "1e999999999", digits,
                "9".repeat(1_000_000), "exceeds the maximum allowed");
        for (Map.Entry<String, String> refusal : refusals.entrySet()) {
            Api.Response r = assertTimeoutPreemptively(QUICK, () -> api.postJson("/api/v1/jobs", """
                    {"circuitId":"%s","partitions":[{"input":{"value":%s,"lower":"1","upper":"2","bitsOf":"3"}}]}"""
                    .formatted(circuit, refusal.getKey())));
            assertThat(r.status()).as(r.body()).isEqualTo(422);
            assertThat(r.json().get("field").asString()).startsWith("partitions[0].input");
            assertThat(r.json().get("field").asString() + " " + r.json().get("detail").asString())
                    .contains("value").contains(refusal.getValue());
        }
        Api.Response verify = assertTimeoutPreemptively(QUICK, () -> api.postJson("/api/v1/verify", """
                {"verificationKey":%s,"proof":%s,"publicSignals":["%s","3"]}""".formatted(
                Files.readString(MUL3.resolve("verification_key.json")), Files.readString(MUL3.resolve("proof.json")),
                "7".repeat(1_000_000))));
        assertThat(verify.status()).as(verify.body()).isEqualTo(422);
        // past the verification's read constraints (a string of 1024 characters at most) before any signal is read
        assertThat(verify.json().get("detail").asString()).contains("larger than a verification can be")
                .contains("1024");
        assertThat(api.get("/api/v1/jobs").json().get("total").asLong()).as("no job created").isEqualTo(jobsBefore);
        assertServiceStillServes();
    }
}
