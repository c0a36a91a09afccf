package io.proofline.snark.prover;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.setup.RandomCoefficients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConstraintRowsTest {

    private static final Path FIXTURES = Path.of("src/test/resources/fixtures");
    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");

    /** Every committed snarkjs key with its witness: the four fixture circuits and mul3, on both curves. */
    static Stream<Arguments> snarkjsKeys() throws Exception {
        List<Arguments> keys = new ArrayList<>();
        for (SnarkCurve curve : SnarkCurves.all()) {
            try (Stream<Path> circuits = Files.list(FIXTURES.resolve(curve.name()))) {
                circuits.sorted().forEach(dir -> keys.add(Arguments.of(curve.name() + "/" + dir.getFileName(), dir)));
            }
            keys.add(Arguments.of(curve.name() + "/mul3", MUL3.resolve(curve.name())));
        }
        return keys.stream();
    }

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("snarkjsKeys")
    void equalsSynthesisOnTheCommittedKeys(String name, Path dir) throws Exception {
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"));
             Witness w = WtnsReader.read(dir.resolve("witness.wtns"), key);
             ConstraintRows rows = ConstraintRows.of(key);
             Arena arena = Arena.ofShared()) {
            assertEquals(key.coefficients().count(), rows.entries());
            assertSame(Synthesis.evaluate(key, w, bytes -> arena.allocate(bytes, 8)),
                    rows.evaluate(w, bytes -> arena.allocate(bytes, 8)), name);
        }
    }

    /**
     * Random rows — empty ones, duplicate signals, a long row, shuffled records — and random witnesses: the same
     * a, b, c as {@link Synthesis} and as a BigInteger evaluation of the records, on both curves.
     */
    @ParameterizedTest
    @MethodSource("curves")
    void equalsSynthesisAndBigIntegersOnRandomRows(SnarkCurve curve) {
        PrimeField fr = curve.fr();
        int[][] shapes = {{2, 3}, {64, 40}, {1024, 700}};
        long seed = 20;
        for (int[] shape : shapes) {
            for (boolean shuffled : new boolean[] {false, true}) {
                try (Arena arena = Arena.ofShared()) {
                    Coefficients coefficients =
                            RandomCoefficients.generate(fr, arena, shape[0], shape[1], seed++, shuffled);
                    Witness w = witness(curve, shape[1], seed++, arena);
                    try (ProvingKey key = keyAround(curve, coefficients, shape[0], shape[1], arena);
                         ConstraintRows rows = ConstraintRows.of(coefficients, shape[0], shape[1])) {
                        Synthesized expected = Synthesis.evaluate(key, w, bytes -> arena.allocate(bytes, 8));
                        Synthesized actual = rows.evaluate(w, bytes -> arena.allocate(bytes, 8));
                        String what = curve.name() + " " + shape[0] + " rows, shuffled " + shuffled;
                        assertSame(expected, actual, what);
                        assertEqualsBigIntegers(coefficients, w, shape[0], actual, what);
                    }
                }
            }
        }
    }

    /** The layout itself: rows in order, A before B, records kept in their order within a row, empty rows empty. */
    @Test
    void sortsRecordsIntoRowsWithDuplicatesAndEmptyRows() {
        PrimeField fr = SnarkCurves.BN128.fr();
        try (Arena arena = Arena.ofShared()) {
            Coefficients coefficients = Coefficients.allocate(arena, fr, 6);
            // record: matrix, row, signal, coefficient
            int[][] records = {{1, 2, 4, 5}, {0, 2, 1, 6}, {0, 0, 3, 7}, {0, 2, 1, 8}, {1, 0, 0, 9}, {0, 2, 2, 10}};
            for (int i = 0; i < records.length; i++) {
                int[] r = records[i];
                coefficients.set(i, r[0], r[1], r[2], fr.fromLong(r[3]), 0);
            }
            try (ConstraintRows rows = ConstraintRows.of(coefficients, 4, 5)) {
                assertEquals(ConstraintRows.byteSize(4, 6, fr.bytes()), rows.byteSize());
                int[] starts = new int[9];
                for (int s = 0; s < starts.length; s++) {
                    starts[s] = rows.starts().getAtIndex(ConstraintRows.U32, s);
                }
                // row 0: A {3}, B {0}; row 1: empty; row 2: A {1, 1, 2}, B {4}; row 3: empty
                assertEquals(List.of(0, 1, 2, 2, 2, 5, 6, 6, 6), toList(starts));
                int[] signals = new int[6];
                long[] coefs = new long[6];
                long[] value = new long[fr.limbs()];
                long[] unit = new long[fr.limbs()];
                unit[0] = 1;
                for (int k = 0; k < 6; k++) {
                    signals[k] = rows.signals().getAtIndex(ConstraintRows.U32, k);
                    SegmentLimbs.read(rows.values(), (long) k * fr.bytes(), fr.limbs(), value, 0);
                    fr.mul(value, 0, unit, 0, value, 0); // coef·R² → coef·R, the Montgomery form
                    coefs[k] = fr.toBigInteger(value, 0).longValueExact();
                }
                assertEquals(List.of(3, 0, 1, 1, 2, 4), toList(signals));
                assertEquals(List.of(7L, 9L, 6L, 8L, 10L, 5L), List.of(coefs[0], coefs[1], coefs[2], coefs[3],
                        coefs[4], coefs[5]));
            }
        }
    }

    @Test
    void namesTheRecordThatFallsOutside() {
        PrimeField fr = SnarkCurves.BLS12381.fr();
        try (Arena arena = Arena.ofShared()) {
            Coefficients coefficients = Coefficients.allocate(arena, fr, 2);
            coefficients.set(0, 0, 0, 0, fr.fromLong(1), 0);
            coefficients.set(1, 1, 1, 9, fr.fromLong(1), 0);
            IllegalArgumentException signal = assertThrows(IllegalArgumentException.class,
                    () -> ConstraintRows.of(coefficients, 2, 4));
            assertTrue(signal.getMessage().contains("coefficient 1: signal 9 outside the witness of 4"),
                    signal.getMessage());
            IllegalArgumentException row = assertThrows(IllegalArgumentException.class,
                    () -> ConstraintRows.of(coefficients, 1, 10));
            assertTrue(row.getMessage().contains("coefficient 1: row 1 outside the domain of 1"), row.getMessage());
            coefficients.set(1, 2, 0, 0, fr.fromLong(1), 0);
            IllegalArgumentException matrix = assertThrows(IllegalArgumentException.class,
                    () -> ConstraintRows.of(coefficients, 2, 10));
            assertTrue(matrix.getMessage().contains("matrix id 2"), matrix.getMessage());
        }
    }

    private static List<Integer> toList(int[] v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }

    private static Witness witness(SnarkCurve curve, int nVars, long seed, Arena arena) {
        byte[] bytes = RandomCoefficients.witness(curve.fr(), nVars, seed);
        MemorySegment values = arena.allocate(bytes.length, 8);
        values.copyFrom(MemorySegment.ofArray(bytes));
        return new Witness(curve, nVars, values, null);
    }

    /** A key whose points are all zero around {@code coefficients}: what {@link Synthesis} reads is only the rows. */
    private static ProvingKey keyAround(SnarkCurve curve, Coefficients coefficients, int rows, int nVars,
                                        Arena arena) {
        int g1 = 2 * curve.fq().limbs();
        return ProvingKey.builder().curve(curve).shape(nVars, 0, rows)
                .alpha1(new long[g1]).beta1(new long[g1]).delta1(new long[g1])
                .beta2(new long[2 * g1]).gamma2(new long[2 * g1]).delta2(new long[2 * g1])
                .ic(new long[g1]).coefficients(coefficients)
                .a(arena.allocate((long) nVars * curve.g1Bytes())).b1(arena.allocate((long) nVars * curve.g1Bytes()))
                .b2(arena.allocate((long) nVars * curve.g2Bytes()))
                .c(arena.allocate((long) (nVars - 1) * curve.g1Bytes()))
                .h(arena.allocate((long) rows * curve.g1Bytes()))
                .build();
    }

    private static void assertSame(Synthesized expected, Synthesized actual, String what) {
        assertEquals(expected.domainSize(), actual.domainSize(), what);
        String[] names = {"a", "b", "c"};
        MemorySegment[] e = {expected.a().segment(), expected.b().segment(), expected.c().segment()};
        MemorySegment[] a = {actual.a().segment(), actual.b().segment(), actual.c().segment()};
        for (int v = 0; v < 3; v++) {
            long at = e[v].mismatch(a[v]);
            assertEquals(-1, at, what + ": " + names[v] + " differs at element " + at / 32);
        }
    }

    /** a[r] = Σ coef·w over the records of A's row r (coef = stored·R⁻² mod p), b likewise, c = a·b. */
    private static void assertEqualsBigIntegers(Coefficients coefficients, Witness w, int rows, Synthesized abc,
                                                String what) {
        PrimeField fr = coefficients.field();
        BigInteger p = fr.modulus();
        BigInteger rInv2 = BigInteger.ONE.shiftLeft(128 * fr.limbs()).modInverse(p);
        BigInteger[][] sums = new BigInteger[2][rows];
        for (BigInteger[] m : sums) {
            java.util.Arrays.fill(m, BigInteger.ZERO);
        }
        long[] raw = new long[fr.limbs()];
        for (int i = 0; i < coefficients.count(); i++) {
            SegmentLimbs.read(coefficients.records(), (long) i * Coefficients.recordBytes(fr) + 12, fr.limbs(), raw,
                    0);
            BigInteger coef = PrimeField.limbsToBigInteger(raw, 0, fr.limbs()).multiply(rInv2).mod(p);
            int m = coefficients.matrix(i);
            int row = coefficients.row(i);
            sums[m][row] = sums[m][row].add(coef.multiply(w.value(coefficients.signal(i)))).mod(p);
        }
        for (int row = 0; row < rows; row++) {
            assertEquals(sums[0][row], abc.a().getBigInteger(row), what + ": a[" + row + "]");
            assertEquals(sums[1][row], abc.b().getBigInteger(row), what + ": b[" + row + "]");
            assertEquals(sums[0][row].multiply(sums[1][row]).mod(p), abc.c().getBigInteger(row),
                    what + ": c[" + row + "]");
        }
    }
}
