package io.proofline.algebra.field;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The committed straight-line field arithmetic is exactly what its generator prints: a hand edit of the generated
 * source, or a generator change that was not re-run, fails here rather than drifting apart silently.
 */
class GeneratedSourcesTest {

    private static final Path SOURCES = Path.of("src/main/java/io/proofline/algebra/field");

    @ParameterizedTest(name = "{1} = python3 {0}")
    @CsvSource({"scripts/gen-montgomery.py, Montgomery.java",
            "scripts/gen-lane-montgomery.py --bits 254, LaneMontgomery254.java",
            "scripts/gen-lane-montgomery.py --bits 381, LaneMontgomery381.java"})
    void committedSourceIsWhatItsGeneratorPrints(String generator, String source) throws Exception {
        String printed = run(generator);
        assertEquals(printed, Files.readString(SOURCES.resolve(source), StandardCharsets.UTF_8),
                source + " is stale or edited by hand: run python3 " + generator + " > " + SOURCES.resolve(source));
    }

    /** Runs {@code python3} on the generator command line (the script, then its arguments). */
    private static String run(String generator) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3"));
        command.addAll(List.of(generator.trim().split("\\s+")));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "python3 is not on the PATH: the generated-source check is skipped (" + e.getMessage() + ")");
            throw e;
        }
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), generator + " did not finish");
        assertEquals(0, process.exitValue(), generator + " failed:\n" + out);
        return out;
    }
}
