package io.proofline.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code aot-training}, the AOT cache's workload: it proves and verifies a dev circuit of each curve through the
 * CLI's own commands, reuses circuits already made, and fails (exit 2, naming the step) when a step fails.
 */
class AotTrainingCommandTest {

    private record Run(int rc, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void provesAndVerifiesACircuitOfEachCurve(@TempDir Path dir) throws Exception {
        Run first = run("aot-training", dir.toString(), "--constraints", "32", "--proofs", "2");

        assertThat(first.rc()).as(first.err()).isZero();
        assertThat(first.out()).contains("2 proof(s) of each of [bn128, bls12381] at 32 constraints, verified");
        for (String curve : new String[] {"bn128", "bls12381"}) {
            assertThat(dir.resolve(curve + "-32").resolve("proof.json")).isNotEmptyFile();
            assertThat(Files.readString(dir.resolve(curve + "-32").resolve("proof.json"))).contains("\"curve\"");
        }
        long made = Files.getLastModifiedTime(dir.resolve("bn128-32").resolve("circuit.zkey")).toMillis();

        Run again = run("aot-training", dir.toString(), "--constraints", "32", "--proofs", "1");

        assertThat(again.rc()).as(again.err()).isZero();
        assertThat(Files.getLastModifiedTime(dir.resolve("bn128-32").resolve("circuit.zkey")).toMillis())
                .as("the circuit made by the first run is reused").isEqualTo(made);
    }

    @Test
    void aFailingStepFailsTheTraining(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("bn128-32"));
        Files.writeString(dir.resolve("bn128-32").resolve("circuit.zkey"), "not a zkey");

        Run run = run("aot-training", dir.toString(), "--constraints", "32");

        assertThat(run.rc()).isEqualTo(2);
        assertThat(run.err()).startsWith("aot-training: prove ").contains("exited 2").contains("circuit.zkey");
    }
}
