package io.proofline.snark.setup;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class DevSetupTest {

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    /** Fixed-base table products equal wNAF scalar multiplication, including 0, 1 and r − 1, on G1 and G2. */
    @ParameterizedTest
    @MethodSource("curves")
    void fixedBaseTableMatchesScalarMultiplication(SnarkCurve curve) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        PrimeField fr = curve.fr();
        for (CurveGroup g : new CurveGroup[] {curve.g1(), curve.g2()}) {
            int count = 40;
            long[] scalars = new long[count * fr.limbs()];
            for (int i = 3; i < count; i++) {
                System.arraycopy(fr.random(rnd), 0, scalars, i * fr.limbs(), fr.limbs());
            }
            System.arraycopy(fr.fromLong(1), 0, scalars, fr.limbs(), fr.limbs());
            System.arraycopy(fr.fromBigInteger(fr.modulus().subtract(BigInteger.ONE)), 0, scalars, 2 * fr.limbs(),
                    fr.limbs());
            FixedBaseTable table = new FixedBaseTable(g, g.generatorCopy(), 7);
            MemorySegment out = MemorySegment.ofArray(new long[count * g.affineWidth()]);
            table.multiplyAll(scalars, count, out, 0);
            long[] got = out.toArray(ValueLayout.JAVA_LONG);
            CurveOps ops = g.newOps();
            for (int i = 0; i < count; i++) {
                long[] expected = ops.mulAffine(g.generatorCopy(), fr.toBigInteger(scalars, i * fr.limbs()));
                long[] actual = java.util.Arrays.copyOfRange(got, i * g.affineWidth(), (i + 1) * g.affineWidth());
                assertArrayEquals(expected, actual, g + " scalar " + i + " seed=" + seed);
            }
        }
    }

    /**
     * Scalar-level check of the key's algebra: Σ Lᵢ(τ) = 1, and for a random polynomial h of degree ≤ N − 2 with
     * h_j = h(x_j)·Z(x_j) on the odd coset, Σ h_j·Hscalar_j = h(τ)·Z(τ)/δ — the identity the H points rely on.
     */
    @ParameterizedTest
    @MethodSource("curves")
    void lagrangeAndCosetScalarsSatisfyTheirIdentities(SnarkCurve curve) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        PrimeField fr = curve.fr();
        BigInteger p = fr.modulus();
        int log = 5;
        int n = 1 << log;
        long[] tau = fr.random(rnd);
        long[] lagrange = DevSetup.lagrangeAtTau(fr, log, tau);
        BigInteger sum = BigInteger.ZERO;
        for (int i = 0; i < n; i++) {
            sum = sum.add(fr.toBigInteger(lagrange, i * fr.limbs()));
        }
        assertEquals(BigInteger.ONE, sum.mod(p), "Σ Lᵢ(τ), seed=" + seed);

        BigInteger delta = fr.toBigInteger(fr.random(rnd));
        long[] deltaInv = fr.fromBigInteger(delta.modInverse(p));
        long[] hs = DevSetup.hScalars(fr, log, tau, deltaInv);
        BigInteger[] h = new BigInteger[n - 1];
        for (int k = 0; k < n - 1; k++) {
            h[k] = fr.toBigInteger(fr.random(rnd));
        }
        BigInteger t = fr.toBigInteger(tau);
        BigInteger omega = BigInteger.valueOf(5).modPow(p.subtract(BigInteger.ONE).shiftRight(log), p);
        BigInteger shift = BigInteger.valueOf(5).modPow(p.subtract(BigInteger.ONE).shiftRight(log + 1), p);
        BigInteger acc = BigInteger.ZERO;
        for (int j = 0; j < n; j++) {
            BigInteger x = shift.multiply(omega.modPow(BigInteger.valueOf(j), p)).mod(p);
            BigInteger hj = eval(h, x, p).multiply(x.modPow(BigInteger.valueOf(n), p).subtract(BigInteger.ONE)).mod(p);
            acc = acc.add(hj.multiply(fr.toBigInteger(hs, j * fr.limbs())));
        }
        BigInteger zTau = t.modPow(BigInteger.valueOf(n), p).subtract(BigInteger.ONE);
        BigInteger expected = eval(h, t, p).multiply(zTau).multiply(delta.modInverse(p)).mod(p);
        assertEquals(expected, acc.mod(p), "Σ h_j·H_j, seed=" + seed);
    }

    private static BigInteger eval(BigInteger[] coef, BigInteger x, BigInteger p) {
        BigInteger acc = BigInteger.ZERO;
        for (int k = coef.length - 1; k >= 0; k--) {
            acc = acc.multiply(x).add(coef[k]).mod(p);
        }
        return acc;
    }
}
