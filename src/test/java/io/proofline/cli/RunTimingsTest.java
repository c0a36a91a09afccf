package io.proofline.cli;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The process's age from {@code /proc}: it must agree with the JVM's own uptime, which starts just after it. */
class RunTimingsTest {

    @Test
    void theProcessAgeFromProcAgreesWithTheJvmsUptime() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "no /proc here");
        long before = ManagementFactory.getRuntimeMXBean().getUptime();
        OptionalLong age = RunTimings.millisSinceProcessStart();
        long after = ManagementFactory.getRuntimeMXBean().getUptime();

        assertTrue(age.isPresent());
        // The process starts before the JVM records its start (exec, loading libjvm): older by a little, never by
        // the up-to-a-second error that adding whole-second boot times gave. 10 ms resolution either side.
        assertTrue(age.getAsLong() >= before - 20, age + " ms vs the JVM's " + before + " ms");
        assertTrue(age.getAsLong() <= after + 500, age + " ms vs the JVM's " + after + " ms");
    }
}
