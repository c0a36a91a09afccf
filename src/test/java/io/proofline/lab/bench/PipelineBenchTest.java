package io.proofline.lab.bench;

import io.proofline.cli.Cli;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code bench pipeline} runs real, verified proofs through the engine and ends with its machine-readable line. */
@Tag("slow")
class PipelineBenchTest {

    private static final Pattern LAST_LINE = Pattern.compile(
            "peak_rss_bytes=(\\d+) peak_reserved_bytes=(\\d+) budget_bytes=(\\d+) proofs=(\\d+) proofs_per_s=([0-9.]+)"
                    + " policy=(budget|baseline) synthesis_workers=(\\d+) s_per_job=([0-9.]+) mean_job_latency_s=([0-9.]+)"
                    + "((?: busy_\\w+=[0-9.]+)+)");

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

    @Test
    void twoLogicalCpuDevicesShareTheWorkAndASweepPrintsOneLinePerSynthesisWorkerCount(@TempDir Path dir) {
        String text = bench(0, "--curve", "bn128", "--constraints", "300", "--partitions", "3", "--jobs", "2",
                "--synthesis-workers", "1,2", "--budget", "1MiB", "--policy", "budget", "--backend", "cpu",
                "--devices", "0,0", "--dir", dir.toString());
        List<Matcher> lines = machineLines(text);
        assertThat(lines).as(text).hasSize(2);
        for (int i = 0; i < 2; i++) {
            Matcher m = lines.get(i);
            assertThat(m.group(7)).isEqualTo(Integer.toString(i + 1));
            assertThat(Long.parseLong(m.group(4))).isEqualTo(6);
            assertThat(Double.parseDouble(m.group(8))).as("seconds per job").isPositive();
            Map<String, Double> busy = busy(m.group(10));
            assertThat(busy.keySet()).containsExactly("cpu0", "cpu1");
            assertThat(busy.values()).allSatisfy(f -> assertThat(f).isPositive().isLessThanOrEqualTo(1.0));
        }
        assertThat(text).contains("device cpu0 (cpu): busy", "device cpu1 (cpu): busy", "every proof verified");
    }

    @Test
    void aMixTakesTheCircuitsInTurn(@TempDir Path dir) {
        String text = bench(0, "--curve", "bn128,bls12381", "--constraints", "200,100", "--partitions", "1",
                "--jobs", "4", "--synthesis-workers", "2", "--finalizer-threads", "1", "--budget", "4MiB",
                "--dir", dir.toString());
        List<Matcher> lines = machineLines(text);
        assertThat(lines).as(text).hasSize(1);
        assertThat(Long.parseLong(lines.getFirst().group(4))).isEqualTo(4);
        assertThat(text).contains("dev-bn128-200", "dev-bn128-100", "dev-bls12381-200", "dev-bls12381-100",
                "1 finalizer threads");
        for (String circuit : List.of("dev-bn128-200", "dev-bn128-100", "dev-bls12381-200", "dev-bls12381-100")) {
            assertThat(dir.resolve(circuit).resolve("circuit.zkey")).exists();
        }
    }

    @Test
    void theGpuBackendWithoutAGpuFailsWithOneLineAndExitCodeThree(@TempDir Path dir) {
        assumeFalse(gpuPresent(), "this machine has a GPU");
        String text = bench(3, "--backend", "gpu", "--devices", "0,1", "--constraints", "200", "--partitions", "1",
                "--jobs", "1", "--budget", "4MiB", "--dir", dir.toString());
        assertThat(text.strip().lines().toList()).as(text).hasSize(1);
        assertThat(text).startsWith("no GPU available: ");
    }

    @Test
    void badBackendOrDeviceListsAreUsageErrors() {
        assertThat(bench(2, "--backend", "tpu", "--budget", "1MiB")).contains("--backend must be cpu or gpu");
        assertThat(bench(2, "--devices", "0,x", "--budget", "1MiB")).contains("--devices must be a comma-separated");
        assertThat(bench(2, "--synthesis-workers", "0", "--budget", "1MiB")).contains("must be positive");
    }

    private static boolean gpuPresent() {
        try {
            io.proofline.gpu.internal.GpuDevices.discover();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String bench(int expectedExit, String... options) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        String[] args = new String[options.length + 2];
        args[0] = "bench";
        args[1] = "pipeline";
        System.arraycopy(options, 0, args, 2, options.length);
        int exit = Cli.run(args, out, out);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isEqualTo(expectedExit);
        return text;
    }

    private static List<Matcher> machineLines(String text) {
        return text.lines().map(LAST_LINE::matcher).filter(Matcher::matches).toList();
    }

    private static Map<String, Double> busy(String figures) {
        Map<String, Double> busy = new LinkedHashMap<>();
        for (String pair : figures.strip().split(" ")) {
            String[] kv = pair.substring("busy_".length()).split("=");
            busy.put(kv[0], Double.parseDouble(kv[1]));
        }
        return busy;
    }

    private static Matcher run(Path dir, String policy, String budget) {
        String text = bench(0, "--curve", "bn128", "--constraints", "300", "--partitions", "3", "--jobs", "2",
                "--synthesis-workers", "3", "--budget", budget, "--policy", policy, "--dir", dir.toString());
        String[] lines = text.strip().split("\n");
        Matcher m = LAST_LINE.matcher(lines[lines.length - 1]);
        assertThat(m.matches()).as(text).isTrue();
        return m;
    }
}
