package io.proofline.lab.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code bench soak} against a started service, for seconds instead of half an hour: it keeps the service busy,
 * prints a row per sample and the slopes after the warm-up. What it asserts is the rows, the jobs and the slope
 * arithmetic, never a memory figure (seconds of a JVM's life say nothing about a leak).
 */
class SoakBenchTest extends RunningService {

    @Test
    void samplesTheServiceUnderLoadAndPrintsTheSlopes() throws Exception {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int exit = new SoakBench().run(new String[]{"--url", url(), "--api-key", API_KEY,
                "--log-constraints", "8", "--clients", "1", "--duration", "8s", "--warmup", "2s", "--sample", "2s"},
                new PrintStream(text, true, StandardCharsets.UTF_8));
        String out = text.toString(StandardCharsets.UTF_8);

        assertThat(exit).as(out).isZero();
        List<String> rows = out.lines().filter(l -> l.matches("^ +\\d+\\.\\d +\\d+\\.\\d +-?\\d+\\.\\d .*")).toList();
        assertThat(rows).as(out).hasSizeGreaterThanOrEqualTo(4);
        assertThat(out).containsPattern("rss_slope_mib_per_min=-?\\d+\\.\\d+ unaccounted_slope_mib_per_min=-?\\d+\\.\\d+"
                + " heap_after_gc_slope_mib_per_min=-?\\d+\\.\\d+ samples=[3-9] jobs=[1-9]\\d* failed=0");
    }

    @Test
    void theSlopeIsTheLeastSquaresFit() {
        // RSS grows 3 MiB a minute with noise around the line; unaccounted is flat
        List<SoakBench.Sample> samples = List.of(
                new SoakBench.Sample(0, mib(100) + 1000, mib(-5), 0, 0, 0, 0),
                new SoakBench.Sample(1, mib(103) - 1000, mib(-5), 0, 0, 0, 1),
                new SoakBench.Sample(2, mib(106) + 1000, mib(-5), 0, 0, 0, 2),
                new SoakBench.Sample(3, mib(109) - 1000, mib(-5), 0, 0, 0, 3));
        assertThat(SoakBench.slope(samples, SoakBench.Sample::rssBytes) / (1 << 20)).isCloseTo(3.0, within(0.01));
        assertThat(SoakBench.slope(samples, SoakBench.Sample::unaccountedBytes)).isZero();
    }

    private static long mib(long n) {
        return n << 20;
    }
}
