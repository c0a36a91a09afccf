package io.proofline.gpu.selftest;

import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.internal.GpuNtt;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The CPU NTT the GPU is checked against, checked itself against the O(n²) definition with BigInteger. */
class ReferenceNttTest {

    @Test
    void matchesTheDefinitionOnBothCurves() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        for (GpuCurve curve : GpuCurve.values()) {
            PrimeField fr = curve.fr();
            BigInteger r = fr.modulus();
            for (int logN : new int[] {1, 3, 6}) {
                int n = 1 << logN;
                int w = fr.limbs();
                long[] omega = GpuNtt.rootOfUnity(fr, logN);
                BigInteger om = fr.toBigInteger(omega);
                assertEquals(BigInteger.ONE, om.modPow(BigInteger.valueOf(n), r), "ω^n = 1");
                assertNotEquals(BigInteger.ONE, om.modPow(BigInteger.valueOf(n / 2), r), "ω is primitive");
                long[] x = new long[n * w];
                BigInteger[] values = new BigInteger[n];
                for (int i = 0; i < n; i++) {
                    System.arraycopy(fr.random(random), 0, x, i * w, w);
                    values[i] = fr.toBigInteger(x, i * w);
                }
                long[] y = x.clone();
                ReferenceNtt.transform(fr, y, logN, omega);
                for (int i = 0; i < n; i++) {
                    BigInteger want = BigInteger.ZERO;
                    for (int j = 0; j < n; j++) {
                        want = want.add(values[j].multiply(om.modPow(BigInteger.valueOf((long) i * j), r)));
                    }
                    assertEquals(want.mod(r), fr.toBigInteger(y, i * w), curve + " 2^" + logN + " i=" + i + " seed=" + seed);
                }
                ReferenceNtt.inverse(fr, y, logN, omega);
                assertArrayEquals(x, y, curve + " inverse round trip, seed=" + seed);
            }
        }
    }
}
