package io.proofline.algebra.field;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every generated kernel method must compile with C1 at tier 3. A vector method too large for it ("out of virtual
 * registers") that C1 first compiled at tier 2 never reaches C2 (the tiered policy waits for a tier-3 profile) and
 * runs with every vector boxed: a 381-bit multiplication in one method made BLS12-381 MSMs 15× slower in some JVMs
 * (docs/lab/benchmarks-history.md). A child JVM stopped at tier 3 drives every kernel method of both shapes; its
 * {@code -XX:+PrintCompilation} output must show each compiled and none skipped.
 */
@Tag("slow")
class LaneKernelsCompileTest {

    /** The child: calls each kernel method of both shapes often enough to reach tier 3. */
    public static void main(String[] args) {
        for (PrimeField f : List.of(Bn254.FQ, Bls12381.FQ)) {
            LaneMontgomery lm = LaneMontgomery.of(f);
            int n = 2 * LaneMontgomery.LANES, w = f.limbs();
            long[] a = new long[w * n];
            SplittableRandom rnd = new SplittableRandom(1);
            for (int i = 0; i < n; i++) {
                System.arraycopy(f.random(rnd), 0, a, w * i, w);
            }
            long[] al = new long[lm.limbs() * n];
            long[] r = new long[w * n];
            for (int k = 0; k < 1500; k++) {
                lm.toLanes(a, 0, n, al, n, 0);
                lm.toPlainLanes(a, 0, n, al, n, 0);
                lm.scaleGroup(al, 0, al, 0, n);
                lm.mul(al, al, al, n, 0, n);
                lm.addGroup(al, 0, al, 0, al, LaneMontgomery.LANES, n);
                lm.subGroup(al, 0, al, 0, al, LaneMontgomery.LANES, n);
                lm.fromLanes(al, n, 0, n, r, 0);
                lm.fromLanesScalar(al, n, 0, 1, r, 0, w);
                lm.fromPlainLanes(al, n, 0, n, r, 0);
            }
        }
        System.out.println("DRIVEN");
    }

    @Test
    void everyKernelMethodCompilesAtTier3() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(List.of(java, "--add-modules", "jdk.incubator.vector", "-XX:TieredStopAtLevel=3",
                "-XX:+PrintCompilation", "-cp", System.getProperty("java.class.path"),
                LaneKernelsCompileTest.class.getName())).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "child did not finish");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("DRIVEN"), out);
        List<String> kernelLines = out.lines().filter(l -> l.contains("LaneMontgomery")).toList();
        assertFalse(kernelLines.stream().anyMatch(l -> l.contains("COMPILE SKIPPED")),
                String.join("\n", kernelLines.stream().filter(l -> l.contains("SKIPPED")).toList()));
        for (String method : List.of("LaneMontgomery254::mulGroup", "LaneMontgomery254::fromLanes",
                "LaneMontgomery254::fromPlainLanes", "LaneMontgomery381::mulSteps0To5", "LaneMontgomery381::mulSteps5To10",
                "LaneMontgomery381::mulSteps10To14", "LaneMontgomery381::divideGroup", "LaneMontgomery381::reduceGroup")) {
            assertTrue(kernelLines.stream().anyMatch(l -> l.contains(method + " (") && l.matches("^\\s*\\d+\\s+\\d+\\s+[ %sbn!]*3\\s.*")),
                    method + " was not compiled at tier 3:\n" + String.join("\n", kernelLines));
        }
    }
}
