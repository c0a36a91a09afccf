package io.proofline.lab.gpu;

import io.proofline.cli.Cli;
import io.proofline.gpu.GpuPresence;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * {@code gpu-bench}, the lab's command (found by the CLI through {@code LabCommands}): its usage errors, and without a
 * GPU the reason and exit code 3, as {@code gpu-selftest}.
 */
class GpuBenchCommandTest {

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badOptionsAreUsageErrorsBeforeAnyDeviceIsTouched() {
        for (String[] args : new String[][] {{"gpu-bench", "--checks", "some"}, {"gpu-bench", "--repeats", "0"},
                {"gpu-bench", "--bench-only", "1"}, {"gpu-bench", "--max-log", "27"}}) {
            Run run = cli(args);
            assertEquals(2, run.code(), String.join(" ", args) + ": " + run.err());
            assertTrue(run.err().contains("usage: gpu-bench"), run.err());
        }
    }

    @Test
    void withoutAGpuItPrintsTheReasonAndExitsThree() {
        assumeFalse(GpuPresence.here(), "this machine has a GPU");
        for (String checks : new String[] {"all", "timed"}) {
            Run run = cli("gpu-bench", "--seed", "1", "--checks", checks);
            assertEquals(3, run.code(), run.out() + run.err());
            assertTrue(run.out().startsWith("no GPU available: "), run.out());
        }
    }

    @Test
    void theProductsSelfTestNoLongerTimes() {
        Run run = cli("gpu-selftest", "--bench");
        assertEquals(2, run.code(), run.err());
        assertTrue(run.err().contains("unknown option --bench"), run.err());
    }
}
