package io.proofline.web;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random bodies for {@code POST /api/v1/jobs} and {@code POST /api/v1/circuits}: mutations of valid requests
 * (dropped, retyped and garbled fields, truncated and bit-flipped witnesses and zkeys) and plain noise. The service
 * must never answer 5xx, and every error must be problem+json. The seed is printed in every failure message.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=fuzz-key", "proofline.security.admin-password=pw",
        "proofline.security.requests-per-second=100000", "proofline.pipeline.synthesis-workers=1",
        "proofline.store.max-circuit-size=1MB", "proofline.store.max-job-size=1MB", "proofline.memory.budget=1GB"})
@Tag("slow")
class SubmissionFuzzTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    static final long SEED = Long.getLong("fuzz.seed", 0x5eed_2026L);
    static final int CASES = Integer.getInteger("fuzz.cases", 150);

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) throws Exception {
        registry.add("proofline.store.data-dir", Files.createTempDirectory("proofline-fuzz")::toString);
    }

    @LocalServerPort
    int port;
    Api api;
    String circuit;
    byte[] wtns;
    byte[] zkey;

    @BeforeEach
    void setUp() throws Exception {
        api = new Api(port, "fuzz-key");
        zkey = Files.readAllBytes(MUL3.resolve("circuit.zkey"));
        wtns = Files.readAllBytes(MUL3.resolve("witness.wtns"));
        circuit = api.postMultipart("/api/v1/circuits", Map.of("zkey", zkey), Map.of()).json().get("id").asString();
    }

    @Test
    void jobSubmissionsNeverAnswer5xx() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < CASES; i++) {
            String body = jobBody(random);
            Api.Response r = api.postJson("/api/v1/jobs", body);
            check(r, "seed " + SEED + " case " + i + " body " + abbreviate(body));
        }
    }

    @Test
    void circuitUploadsNeverAnswer5xx() throws Exception {
        SplittableRandom random = new SplittableRandom(SEED ^ 0xC1C);
        for (int i = 0; i < CASES / 3; i++) {
            byte[] bytes = mutate(random, zkey);
            Api.Response r = api.postMultipart("/api/v1/circuits", Map.of("zkey", bytes),
                    random.nextBoolean() ? Map.of("name", randomString(random, 30)) : Map.of());
            check(r, "seed " + (SEED ^ 0xC1C) + " case " + i + " zkey of " + bytes.length + " bytes");
        }
    }

    private static void check(Api.Response r, String what) {
        assertThat(r.status()).as(what + " -> " + r.body()).isBetween(200, 499);
        if (r.status() >= 400) {
            assertThat(r.headers().firstValue("Content-Type").orElse("")).as(what)
                    .startsWith("application/problem+json");
        }
    }

    private String jobBody(SplittableRandom random) {
        return switch (random.nextInt(6)) {
            case 0 -> randomString(random, 200);
            case 1 -> "{\"circuitId\":" + jsonValue(random, circuit) + ",\"partitions\":" + partitions(random) + "}";
            case 2 -> "{\"circuitId\":\"" + circuit + "\",\"priority\":" + jsonValue(random, "HIGH")
                    + ",\"verify\":" + jsonValue(random, "true") + ",\"requestId\":" + jsonValue(random, "r")
                    + ",\"partitions\":" + partitions(random) + "}";
            case 3 -> {
                String valid = "{\"circuitId\":\"" + circuit + "\",\"partitions\":[{\"witness\":\""
                        + Base64.getEncoder().encodeToString(wtns) + "\"}]}";
                yield valid.substring(0, random.nextInt(valid.length() + 1));
            }
            case 4 -> "{\"circuitId\":\"" + circuit + "\",\"partitions\":[{\"input\":" + jsonValue(random, "{}") + "}]}";
            default -> "[" + jsonValue(random, "1") + "," + partitions(random) + "]";
        };
    }

    private String partitions(SplittableRandom random) {
        int n = random.nextInt(4);
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",");
            b.append(switch (random.nextInt(4)) {
                case 0 -> "{\"witness\":\"" + Base64.getEncoder().encodeToString(mutate(random, wtns)) + "\"}";
                case 1 -> "{\"witness\":" + jsonValue(random, "\"AAAA\"") + "}";
                case 2 -> "{\"input\":{\"a\":" + jsonValue(random, "\"3\"") + "}}";
                default -> jsonValue(random, "{}");
            });
        }
        return b.append("]").toString();
    }

    private static String jsonValue(SplittableRandom random, String usual) {
        return switch (random.nextInt(8)) {
            case 0 -> "null";
            case 1 -> Long.toString(random.nextLong());
            case 2 -> "\"" + randomString(random, 20).replace("\\", "").replace("\"", "") + "\"";
            case 3 -> "[]";
            case 4 -> "{\"x\":1}";
            case 5 -> "true";
            default -> usual.startsWith("\"") || usual.startsWith("{") || usual.startsWith("[") || usual.equals("true")
                    || usual.matches("-?\\d+") ? usual : "\"" + usual + "\"";
        };
    }

    /** Truncates, bit-flips, overwrites with noise or returns noise. */
    static byte[] mutate(SplittableRandom random, byte[] valid) {
        byte[] b = valid.clone();
        switch (random.nextInt(5)) {
            case 0 -> {
                return java.util.Arrays.copyOf(b, random.nextInt(b.length + 1));
            }
            case 1 -> {
                for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
                    b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 2 -> {
                int at = random.nextInt(b.length);
                for (int i = at; i < Math.min(b.length, at + 16); i++) {
                    b[i] = (byte) random.nextInt(256);
                }
            }
            case 3 -> {
                byte[] noise = new byte[random.nextInt(512) + 1];
                random.nextBytes(noise);
                return noise;
            }
            default -> {
                // valid, unchanged
            }
        }
        return b;
    }

    private static String randomString(SplittableRandom random, int max) {
        int n = random.nextInt(max + 1);
        StringBuilder s = new StringBuilder(n);
        String alphabet = "{}[]\",:0123456789abcdefxyz \\\n\t-+.eE";
        for (int i = 0; i < n; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
