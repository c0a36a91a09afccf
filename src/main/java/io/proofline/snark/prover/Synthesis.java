package io.proofline.snark.prover;

import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.poly.FieldVector;
import io.proofline.algebra.poly.ParallelRange;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.Witness;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.OptionalInt;
import java.util.function.LongFunction;

/**
 * Synthesis: evaluates the constraint system of a proving key on a witness, {@code a = A·w}, {@code b = B·w},
 * {@code c = a∘b} over the N rows of the domain (rows past the constraints and the {@code nPublic + 1} input rows
 * stay zero).
 *
 * <p>A record's stored value is the integer {@code coef·R²}; the witness is canonical. The Montgomery product of the
 * two is {@code coef·R²·w·R⁻¹ = (coef·w)·R}, the Montgomery form of {@code coef·w}: one multiplication per record and
 * no conversion of either side. Cost: one multiplication and one addition per record, then N multiplications for
 * {@code c}. Rows are split across threads by {@link RowPartition}, so no two threads write one row.
 */
public final class Synthesis {

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Synthesis() {
    }

    /**
     * Evaluates {@code key}'s constraints on {@code witness} into three vectors of {@code domainSize} elements whose
     * memory comes from {@code allocate} (called three times with the byte size of one vector; the segments are
     * cleared here).
     *
     * @throws IllegalArgumentException when the witness does not fit the key (curve or length)
     */
    public static Synthesized evaluate(ProvingKey key, Witness witness, LongFunction<MemorySegment> allocate) {
        checkShape(key, witness);
        PrimeField fr = key.curve().fr();
        long bytes = FieldVector.byteSize(fr, key.domainSize());
        FieldVector a = FieldVector.wrap(fr, sized(allocate.apply(bytes), bytes));
        FieldVector b = FieldVector.wrap(fr, sized(allocate.apply(bytes), bytes));
        FieldVector c = FieldVector.wrap(fr, sized(allocate.apply(bytes), bytes));
        a.clear();
        b.clear();
        evaluateRows(key, witness, a, b);
        c.mul(a, b);
        return new Synthesized(a, b, c);
    }

    /**
     * Checks {@code witness} against every constraint of the circuit's {@code .r1cs} (when the caller has it: the key
     * alone cannot tell a wrong witness from a right one, it only yields a proof that fails verification).
     *
     * @throws IllegalArgumentException naming the first failing constraint and its A·w, B·w, C·w
     */
    public static void requireSatisfies(R1cs r1cs, Witness witness) {
        OptionalInt bad = r1cs.firstUnsatisfied(witness);
        if (bad.isPresent()) {
            throw new IllegalArgumentException("witness does not satisfy the r1cs: " + r1cs.describe(bad.getAsInt(),
                    witness));
        }
    }

    /** Rejects a witness of another curve or length with a message that says what was expected. */
    public static void checkShape(ProvingKey key, Witness witness) {
        if (witness.curve() != key.curve()) {
            throw new IllegalArgumentException("witness is over " + witness.curve() + " but the key is over "
                    + key.curve());
        }
        if (witness.size() != key.nVars()) {
            throw new IllegalArgumentException("witness has " + witness.size() + " values but the key expects "
                    + key.nVars() + " (nVars)");
        }
    }

    private static MemorySegment sized(MemorySegment s, long bytes) {
        if (s.byteSize() < bytes) {
            throw new IllegalArgumentException("allocator returned " + s.byteSize() + " bytes, asked for " + bytes);
        }
        return s.asSlice(0, bytes);
    }

    private static void evaluateRows(ProvingKey key, Witness witness, FieldVector a, FieldVector b) {
        Coefficients coefficients = key.coefficients();
        int[] cuts = RowPartition.of(coefficients, key.domainSize());
        MemorySegment records = coefficients.records();
        MemorySegment w = witness.canonical();
        PrimeField fr = key.curve().fr();
        int limbs = fr.limbs();
        int recordBytes = Coefficients.recordBytes(fr);
        int nVars = key.nVars();
        FieldVector[] out = {a, b};
        ParallelRange.forEach(cuts.length - 1, 1, (fromChunk, toChunk) -> {
            // acc at 0, witness value at limbs, coefficient at 2·limbs, row value at 3·limbs
            long[] s = new long[4 * limbs];
            for (long chunk = fromChunk; chunk < toChunk; chunk++) {
                int matrix = -1;
                int row = -1;
                for (int i = cuts[(int) chunk]; i < cuts[(int) chunk + 1]; i++) {
                    long base = (long) i * recordBytes;
                    int m = records.get(U32, base);
                    int r = records.get(U32, base + 4);
                    int signal = records.get(U32, base + 8);
                    if (signal < 0 || signal >= nVars) {
                        throw new IllegalArgumentException("coefficient " + i + ": signal " + signal
                                + " outside the witness of " + nVars);
                    }
                    if (m != matrix || r != row) {
                        if (matrix >= 0) {
                            accumulate(out[matrix], row, fr, s);
                        }
                        matrix = m;
                        row = r;
                        fr.setZero(s, 0);
                    }
                    SegmentLimbs.read(w, (long) signal * 8 * limbs, limbs, s, limbs);
                    if (fr.isZero(s, limbs)) {
                        continue; // many circuit signals are 0: skip the multiplication
                    }
                    SegmentLimbs.read(records, base + 12, limbs, s, 2 * limbs);
                    fr.mul(s, 2 * limbs, s, limbs, s, limbs);
                    fr.add(s, 0, s, limbs, s, 0);
                }
                if (matrix >= 0) {
                    accumulate(out[matrix], row, fr, s);
                }
            }
        });
    }

    /** out[row] += s[0..limbs): rows normally get one run, but a key with split runs is summed correctly too. */
    private static void accumulate(FieldVector out, int row, PrimeField fr, long[] s) {
        int limbs = fr.limbs();
        out.get(row, s, 3 * limbs);
        fr.add(s, 3 * limbs, s, 0, s, 3 * limbs);
        out.set(row, s, 3 * limbs);
    }
}
