package io.proofline.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeapOptsCommandTest {

    @Test
    void printsTheHeapRulesOptionsForAGivenLimitOnOneLine() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"heap-opts", "--limit", "3GiB"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        assertEquals(0, code);
        String line = out.toString(StandardCharsets.UTF_8);
        // The cgroup's limit narrows a given one, so the heap may be smaller than 3 GiB / 4 where the test runs in one.
        assertTrue(line.matches("-Xmx\\d+m -XX:MaxMetaspaceSize=256m -XX:ReservedCodeCacheSize=128m -Xss512k "
                + "-XX:\\+ExitOnOutOfMemoryError\\R"), line);
    }

    @Test
    void refusesAMalformedLimit() {
        assertEquals(2, Cli.run(new String[] {"heap-opts", "--limit", "lots"}, System.out, System.err));
    }
}
