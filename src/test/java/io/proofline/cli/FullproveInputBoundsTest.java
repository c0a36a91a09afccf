package io.proofline.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The CLI's {@code fullprove} refuses a huge number in input.json at once, naming the file and the bound. */
class FullproveInputBoundsTest {

    @TempDir
    Path tmp;

    @Test
    void aHugeNumberInInputJsonExitsTwoNamingTheBound() throws Exception {
        Path fixture = Path.of("src/test/resources/fixtures/bn128/poseidon_hash");
        for (String value : new String[] {"1e999999999", "\"" + "9".repeat(5_000_000) + "\""}) {
            Path input = tmp.resolve("input.json");
            Files.writeString(input, "{\"inputs\": [" + value + ", 2]}");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> Cli.run(new String[] {"fullprove",
                    input.toString(), fixture.resolve("circuit.wasm").toString(), fixture.resolve("circuit.zkey").toString(),
                    tmp.resolve("proof.json").toString(), tmp.resolve("public.json").toString()},
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)));
            assertEquals(2, code);
            assertEquals("fullprove: input.json: input 'inputs' has more than 80 decimal (66 hex) digits; "
                    + "a field element has at most 78\n", err.toString(StandardCharsets.UTF_8));
        }
    }
}
