package io.proofline.cli.bench;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench http} against a started service, briefly: it registers a small dev circuit, runs its clients, verifies
 * every proof it sampled and prints the table. What it asserts is the proofs and the table, never a timing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=bench-key",
        "proofline.security.admin-password=admin-pw",
        "proofline.security.requests-per-second=10000",
        "proofline.console.demo.enabled=false",
        "proofline.pipeline.synthesis-workers=1",
        "proofline.memory.budget=1GB"})
@Tag("slow")
class HttpBenchTest {

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) throws Exception {
        registry.add("proofline.store.data-dir", Files.createTempDirectory("proofline-bench-http-test")::toString);
    }

    @LocalServerPort
    int port;

    @Test
    void drivesTheServiceAndVerifiesItsProofs() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int exit = new HttpBench().run(new String[]{"--url", "http://127.0.0.1:" + port, "--api-key", "bench-key",
                "--log-constraints", "8", "--clients", "1,2", "--jobs", "3", "--partitions", "2", "--warmup", "1",
                "--verify-sample", "3"}, new PrintStream(text, true, StandardCharsets.UTF_8));
        String out = text.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(out).isZero();
        // warm-up: 1 job of 2 partitions; each run: its 3 jobs of 2 partitions
        assertThat(out).contains("verified 2 proof(s) here against the circuit's verification key: 0 invalid");
        assertThat(out).containsSubsequence("1 client(s): verified 6 proof(s)", "2 client(s): verified 6 proof(s)");
        assertThat(out.lines().filter(l -> l.matches("^[12] +3 +6 .*"))).hasSize(2);
    }
}
