package io.proofline.algebra.field;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    @CsvSource({"scripts/gen-montgomery.py, Montgomery.java", "scripts/gen-lane-montgomery.py, LaneMontgomery.java"})
    void committedSourceIsWhatItsGeneratorPrints(String generator, String source) throws Exception {
        String printed = run(generator);
        assertEquals(printed, Files.readString(SOURCES.resolve(source), StandardCharsets.UTF_8),
                source + " is stale or edited by hand: run python3 " + generator + " > " + SOURCES.resolve(source));
    }

    private static String run(String generator) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder("python3", generator).redirectErrorStream(true).start();
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
