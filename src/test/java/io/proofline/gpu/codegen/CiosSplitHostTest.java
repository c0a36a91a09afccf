package io.proofline.gpu.codegen;

import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.GpuCurve;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The split-accumulator Montgomery multiplication of native-cuda/ff/cios_split.cuh, run on the host (its carry chains
 * emulated there) against {@link BigInteger}: native-cuda/test/cios_split_test.cu prints 20,000 random products per
 * field — values near p and small ones among them — and each must be ≡ a·b·2^(−32N) (mod p) and below 2p. Compiled
 * with nvcc, so skipped where nvcc is absent.
 */
class CiosSplitHostTest {

    @Test
    void everyProductMatchesBigInteger() throws IOException, InterruptedException {
        Assumptions.assumeTrue(onPath("nvcc"), "nvcc is not on the PATH: the host test of cios_split.cuh is skipped");
        Path exe = Path.of("target", "cios_split_test");
        Files.createDirectories(exe.getParent());
        run(List.of("nvcc", "-std=c++17", "-O2", "-o", exe.toString(), "native-cuda/test/cios_split_test.cu"));
        String output = run(List.of(exe.toString()));

        Map<String, PrimeField> fields = new HashMap<>();
        for (GpuCurve curve : GpuCurve.values()) {
            String prefix = curve.kernel("");
            fields.put(prefix + "fq", curve.fq());
            fields.put(prefix + "fr", curve.fr());
        }
        int checked = 0;
        for (String line : output.split("\n")) {
            String[] f = line.trim().split(" ");
            PrimeField field = fields.get(f[0]);
            assertThat(field).as("field of line %s", line).isNotNull();
            BigInteger p = field.modulus();
            BigInteger a = new BigInteger(f[1], 16);
            BigInteger b = new BigInteger(f[2], 16);
            BigInteger t = new BigInteger(f[3], 16);
            BigInteger rInverse = BigInteger.ONE.shiftLeft(64 * field.limbs()).modInverse(p);
            BigInteger expected = a.multiply(b).multiply(rInverse).mod(p);
            assertThat(t.mod(p)).as("%s: %s · %s", f[0], f[1], f[2]).isEqualTo(expected);
            assertThat(t).as("%s: below 2p", f[0]).isLessThan(p.shiftLeft(1));
            checked++;
        }
        assertThat(checked).isEqualTo(4 * 20_000);
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("%s exited 0: %s", command, text).isZero();
        return text;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
