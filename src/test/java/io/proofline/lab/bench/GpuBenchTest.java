package io.proofline.lab.bench;

import io.proofline.cli.Cli;
import io.proofline.cli.UsageException;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.GpuPresence;
import io.proofline.lab.gpu.GpuBenchmark;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code bench gpu}: option parsing, and the one-line answer where there is no GPU. */
class GpuBenchTest {

    @Test
    void defaultsCoverIssueSevensSizesOnBothCurves() throws Exception {
        GpuBenchmark.Options o = GpuBench.parse(new String[0]);
        assertEquals(List.of(GpuCurve.BN254, GpuCurve.BLS12_381), o.curves());
        assertEquals(List.of(16, 17, 18, 19, 20, 21, 22, 23, 24), o.msmLogs());
        assertEquals(List.of(16, 17, 18, 19, 20, 21, 22), o.g2MsmLogs());
        assertEquals(List.of(16, 17, 18, 19, 20, 21, 22, 23, 24), o.nttLogs());
        assertEquals(List.of(16, 17, 18, 19, 20, 21, 22), o.proofLogs());
        assertTrue(o.repeats() >= 10, "median of at least 10 runs");
        assertEquals(GpuBench.DEFAULT_SECONDS, o.seconds());
    }

    @Test
    void sizesAreRangesListsOrNone() throws Exception {
        GpuBenchmark.Options o = GpuBench.parse(new String[] {"--curves", "bls12-381", "--msm", "16,20,24", "--g2-msm", "18,20",
                "--ntt", "none", "--proofs", "18-19,22", "--repeats", "21", "--warmup", "0", "--finish-repeats", "1",
                "--seconds", "250", "--seed", "7"});
        assertEquals(List.of(GpuCurve.BLS12_381), o.curves());
        assertEquals(List.of(16, 20, 24), o.msmLogs());
        assertEquals(List.of(18, 20), o.g2MsmLogs());
        assertEquals(List.of(), o.nttLogs());
        assertEquals(List.of(18, 19, 22), o.proofLogs());
        assertEquals(21, o.repeats());
        assertEquals(0, o.warmups());
        assertEquals(1, o.finishRepeats());
        assertEquals(250, o.seconds());
        assertEquals(7, o.seed());
        assertEquals(List.of(GpuCurve.BN254, GpuCurve.BLS12_381), GpuBench.curves("bn254,bls12_381,bn128"));
    }

    @Test
    void badOptionsAreUsageErrors() {
        for (String[] args : new String[][] {
                {"--msm", "16-30"}, {"--msm", "20-16"}, {"--ntt", "x"}, {"--proofs", "3"}, {"--curves", "secp256k1"},
                {"--repeats", "0"}, {"--seconds", "-1"}, {"--warmup", "-1"}, {"--seed", "abc"}, {"--frobnicate", "1"},
                {"--msm", "none", "--g2-msm", "none", "--ntt", "none", "--proofs", "none"}, {"--g2-msm", "9"}, {"extra"}, {"--msm"}}) {
            assertThrows(UsageException.class, () -> GpuBench.parse(args), String.join(" ", args));
        }
    }

    @Test
    void withoutAGpuItPrintsOneLineAndExitsThree() {
        assumeFalse(GpuPresence.here(), "this machine has a GPU");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"bench", "gpu", "--msm", "16", "--seconds", "5"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(3, code, printed);
        assertTrue(printed.startsWith("no GPU available: "), printed);
        assertEquals(1, printed.strip().lines().count(), printed);
    }

    @Test
    void aBadOptionIsExitTwoBeforeAnyGpuIsTouched() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"bench", "gpu", "--msm", "99"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--msm"), err.toString(StandardCharsets.UTF_8));
    }
}
