package io.proofline.algebra.curve;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM without {@code --add-modules jdk.incubator.vector} (plain {@code java -jar}, the service) must run MSMs on
 * the scalar path: no lane class may be initialised there, or the first MSM dies with NoClassDefFoundError (as an
 * early version of the lane switch did). Runs {@code bench algebra} on a small MSM in a child JVM.
 */
@Tag("slow")
class WithoutVectorModuleTest {

    @Test
    void msmRunsScalarWhenTheModuleIsNotResolved() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                "io.proofline.Proofline", "bench", "algebra", "--runs", "1", "--msm-log-sizes", "10"))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child did not finish");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("on Vector API lanes: bn254 false, bls12381 false"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("| bn254")), out);
    }
}
