package io.proofline.lab.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bench http} against a started service, briefly: it registers a small dev circuit, runs its clients, verifies
 * every proof it sampled and prints the table. What it asserts is the proofs and the table, never a timing.
 */
class HttpBenchTest extends RunningService {

    @Test
    void drivesTheServiceAndVerifiesItsProofs() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int exit = new HttpBench().run(new String[]{"--url", url(), "--api-key", API_KEY,
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
