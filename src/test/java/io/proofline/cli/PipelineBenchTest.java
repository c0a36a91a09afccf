package io.proofline.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code bench pipeline} runs real, verified proofs through the engine and ends with its machine-readable line. */
class PipelineBenchTest {

    private static final Pattern LAST_LINE = Pattern.compile(
            "peak_rss_bytes=(\\d+) peak_reserved_bytes=(\\d+) budget_bytes=(\\d+) proofs=(\\d+) proofs_per_s=([0-9.]+)");

    @Test
    void budgetPolicyKeepsReservedBytesWithinTheBudget(@TempDir Path dir) throws Exception {
        Matcher m = run(dir, "budget", "1MiB");
        assertThat(Long.parseLong(m.group(4))).isEqualTo(6);
        long peakReserved = Long.parseLong(m.group(2));
        assertThat(peakReserved).isPositive().isLessThanOrEqualTo(Long.parseLong(m.group(3)));
        assertThat(Long.parseLong(m.group(1))).isPositive();
    }

    @Test
    void baselinePolicyReservesNothing(@TempDir Path dir) throws Exception {
        Matcher m = run(dir, "baseline", "1MiB");
        assertThat(Long.parseLong(m.group(4))).isEqualTo(6);
        assertThat(Long.parseLong(m.group(2))).isZero();
    }

    private static Matcher run(Path dir, String policy, String budget) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int exit = Cli.run(new String[]{"bench", "pipeline", "--curve", "bn128", "--constraints", "300",
                "--partitions", "3", "--jobs", "2", "--synthesis-workers", "3", "--budget", budget,
                "--policy", policy, "--dir", dir.toString()}, out, out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isZero();
        String[] lines = text.strip().split("\n");
        Matcher m = LAST_LINE.matcher(lines[lines.length - 1]);
        assertThat(m.matches()).as(text).isTrue();
        return m;
    }
}
