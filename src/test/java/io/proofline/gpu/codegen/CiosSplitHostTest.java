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
 * field — values near p and small ones among them — and each must be ≡ a·b·2^(−32N) (mod p) and below 2p; likewise
 * 20,000 lazily reduced Fq2 products (fq2_mul_wide) per G2 base field. Compiled
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
        int checkedFq2 = 0;
        for (String line : output.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f[0].endsWith("fq2")) {
                checkFq2(fields.get(f[0].substring(0, f[0].length() - 1)), f);
                checkedFq2++;
                continue;
            }
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
        assertThat(checkedFq2).isEqualTo(2 * 20_000);
    }

    /** fq2_mul_wide: r0 ≡ (a0b0 − a1b1)·R⁻¹ and r1 ≡ (a0b1 + a1b0)·R⁻¹ (mod p), each below 2p. */
    private static void checkFq2(PrimeField fq, String[] f) {
        assertThat(fq).as("base field of %s", f[0]).isNotNull();
        BigInteger p = fq.modulus();
        BigInteger[] v = new BigInteger[6];
        for (int i = 0; i < 6; i++) {
            v[i] = new BigInteger(f[i + 1], 16);
        }
        BigInteger rInverse = BigInteger.ONE.shiftLeft(64 * fq.limbs()).modInverse(p);
        BigInteger c0 = v[0].multiply(v[2]).subtract(v[1].multiply(v[3])).multiply(rInverse).mod(p);
        BigInteger c1 = v[0].multiply(v[3]).add(v[1].multiply(v[2])).multiply(rInverse).mod(p);
        assertThat(v[4].mod(p)).as("%s: c0 of (%s + %s u)(%s + %s u)", f[0], f[1], f[2], f[3], f[4]).isEqualTo(c0);
        assertThat(v[5].mod(p)).as("%s: c1 of (%s + %s u)(%s + %s u)", f[0], f[1], f[2], f[3], f[4]).isEqualTo(c1);
        assertThat(v[4]).as("%s: c0 below 2p", f[0]).isLessThan(p.shiftLeft(1));
        assertThat(v[5]).as("%s: c1 below 2p", f[0]).isLessThan(p.shiftLeft(1));
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
