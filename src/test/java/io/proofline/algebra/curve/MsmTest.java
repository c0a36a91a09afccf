package io.proofline.algebra.curve;

import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.field.PrimeField;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Pippenger against the naive Σ [kᵢ]Pᵢ on inputs full of the special cases. */
class MsmTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(Bn254Curves.G1, 1), Arguments.of(Bn254Curves.G1, 2), Arguments.of(Bn254Curves.G1, 7),
                Arguments.of(Bn254Curves.G1, 100), Arguments.of(Bn254Curves.G1, 3000),
                Arguments.of(Bls12381Curves.G1, 1), Arguments.of(Bls12381Curves.G1, 33), Arguments.of(Bls12381Curves.G1, 2000),
                Arguments.of(Bn254Curves.G2, 1), Arguments.of(Bn254Curves.G2, 50), Arguments.of(Bn254Curves.G2, 700),
                Arguments.of(Bls12381Curves.G2, 3), Arguments.of(Bls12381Curves.G2, 500));
    }

    @ParameterizedTest(name = "{0} n={1}")
    @MethodSource("cases")
    void pippengerEqualsNaiveSum(CurveGroup g, int n) {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom rnd = new SplittableRandom(seed);
        CurveOps ops = g.newOps();
        int aw = g.affineWidth();
        long[] bases = new long[n * aw];
        long[] step = TestPoints.randomSubgroupPoint(ops, rnd);
        long[] current = TestPoints.randomSubgroupPoint(ops, rnd);
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(10);
            if (kind == 0) {
                continue;                                         // infinity base
            }
            if (kind == 1 && i > 0) {
                int j = rnd.nextInt(i);                           // repeated point
                System.arraycopy(bases, j * aw, bases, i * aw, aw);
                continue;
            }
            current = ops.addAffine(current, step);
            System.arraycopy(current, 0, bases, i * aw, aw);
        }
        long[] scalars = new long[4 * n];
        BigInteger[] k = new BigInteger[n];
        for (int i = 0; i < n; i++) {
            k[i] = switch (rnd.nextInt(8)) {
                case 0 -> BigInteger.ZERO;
                case 1 -> BigInteger.ONE;
                case 2 -> g.order().subtract(BigInteger.ONE);
                case 3 -> BigInteger.valueOf(rnd.nextInt(1 << 20));
                default -> TestPoints.randomScalar(g, rnd);
            };
            System.arraycopy(PrimeField.toLimbs(k[i], 4), 0, scalars, 4 * i, 4);
        }
        long[] expected = new long[aw];
        for (int i = 0; i < n; i++) {
            long[] p = java.util.Arrays.copyOfRange(bases, i * aw, (i + 1) * aw);
            expected = ops.addAffine(expected, ops.mulAffine(p, k[i]));
        }
        String msg = g.name() + " n=" + n + " seed=" + seed;
        assertArrayEquals(expected, Msm.compute(g, bases, scalars), msg);

        // Unaligned off-heap segments at odd offsets, and a small fixed pool: same answer.
        try (Arena arena = Arena.ofShared(); ExecutorService pool = Executors.newFixedThreadPool(3)) {
            MemorySegment b = arena.allocate(bases.length * 8L + 3);
            MemorySegment s = arena.allocate(scalars.length * 8L + 5);
            MemorySegment.copy(MemorySegment.ofArray(bases), 0, b, 3, bases.length * 8L);
            MemorySegment.copy(MemorySegment.ofArray(scalars), 0, s, 5, scalars.length * 8L);
            assertArrayEquals(expected, Msm.compute(g, b, 3, s, 5, n, pool), msg);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    void allZeroAndAllOneScalars(CurveGroup g) {
        CurveOps ops = g.newOps();
        int aw = g.affineWidth();
        int n = 40;
        long[] bases = new long[n * aw];
        long[] sum = new long[aw];
        for (int i = 0; i < n; i++) {
            long[] p = ops.mulAffine(g.generator(), BigInteger.valueOf(i + 1));
            System.arraycopy(p, 0, bases, i * aw, aw);
            sum = ops.addAffine(sum, p);
        }
        assertArrayEquals(new long[aw], Msm.compute(g, bases, new long[4 * n]));
        long[] ones = new long[4 * n];
        for (int i = 0; i < n; i++) {
            ones[4 * i] = 1;
        }
        assertArrayEquals(sum, Msm.compute(g, bases, ones));
        assertArrayEquals(ops.mulAffine(g.generator(), BigInteger.valueOf(n * (n + 1) / 2)), sum);
    }

    static Stream<CurveGroup> groups() {
        return Stream.of(Bn254Curves.G1, Bn254Curves.G2, Bls12381Curves.G1, Bls12381Curves.G2);
    }

    @org.junit.jupiter.api.Test
    void boothDigitsReconstructTheScalar() {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int trial = 0; trial < 200; trial++) {
            long[] s = {rnd.nextLong(), rnd.nextLong(), rnd.nextLong(), rnd.nextLong()};
            BigInteger k = PrimeField.limbsToBigInteger(s, 0, 4);
            int c = 1 + rnd.nextInt(20);
            int windows = (256 + c) / c;
            BigInteger sum = BigInteger.ZERO;
            for (int j = 0; j < windows; j++) {
                int start = j * c - 1;
                long v = start < 0 ? Msm.bits(s[0], s[1], s[2], s[3], 0, c) << 1 : Msm.bits(s[0], s[1], s[2], s[3], start, c + 1);
                long d = (v & 1) + ((v >>> 1) & ((1L << (c - 1)) - 1)) - (((v >>> c) & 1) << (c - 1));
                assert Math.abs(d) <= (1L << (c - 1));
                sum = sum.add(BigInteger.valueOf(d).shiftLeft(j * c));
            }
            assertArrayEquals(k.toByteArray(), sum.toByteArray(), "c=" + c + " k=" + k);
        }
    }

}
