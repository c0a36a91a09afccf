package io.proofline.snark.prover;

import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.poly.FieldVector;
import io.proofline.algebra.poly.ParallelRange;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.Witness;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.function.LongFunction;

/**
 * The A and B matrices of a proving key by constraint row (compressed sparse rows), built once from the zkey's
 * coefficient records, in the layout a GPU evaluates with one thread per row: row {@code r}'s A entries are
 * {@code [starts[2r], starts[2r+1])} and its B entries {@code [starts[2r+1], starts[2r+2])}; entry {@code k} is
 * witness index {@code signals[k]} with coefficient {@code values[k]}.
 *
 * <p>The records come in any order (snarkjs writes them constraint by constraint, other tools may not); a counting
 * sort by (row, matrix) places them, keeping their order within a row. Duplicate signals in a row stay separate
 * entries (their products add up), and rows without records — past the constraints — are empty.
 *
 * <p>A value is stored as the zkey has it, the integer {@code coef·R²} (R = 2^(8·n8r)): its Montgomery product with
 * a canonical witness value is {@code coef·R²·w·R⁻¹ = (coef·w)·R}, the Montgomery form of {@code coef·w}. So a row is
 * one multiplication and one addition per entry, with the witness exactly as it is uploaded for the MSMs, and
 * a, b, c come out in Montgomery form, which is what the NTTs of prove start read. {@link #evaluate} is the host
 * evaluation of this layout (the reference the device kernels are checked against); it equals {@link Synthesis}.
 *
 * <p>The memory is off-heap in the instance's own arena, freed by {@link #close()}.
 */
public final class ConstraintRows implements AutoCloseable {

    /** How the row starts and signals are stored: unsigned 32-bit little-endian words. */
    public static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Alignment of the values: the device loads an element as 16-byte words. */
    private static final long VALUE_ALIGNMENT = 16;

    private final PrimeField fr;
    private final int rows;
    private final int nVars;
    private final int entries;
    private final MemorySegment starts;
    private final MemorySegment signals;
    private final MemorySegment values;
    private final Arena arena;

    private ConstraintRows(PrimeField fr, int rows, int nVars, int entries, Arena arena) {
        this.fr = fr;
        this.rows = rows;
        this.nVars = nVars;
        this.entries = entries;
        this.arena = arena;
        this.starts = arena.allocate(startsBytes(rows), 8);
        this.signals = arena.allocate(Math.max(1, 4L * entries), 8).asSlice(0, 4L * entries);
        this.values = arena.allocate(Math.max(1, (long) entries * fr.bytes()), VALUE_ALIGNMENT)
                .asSlice(0, (long) entries * fr.bytes());
    }

    /** The rows of {@code key}'s A and B over its domain. */
    public static ConstraintRows of(ProvingKey key) {
        return of(key.coefficients(), key.domainSize(), key.nVars());
    }

    /**
     * Sorts {@code coefficients}' records into rows {@code 0..rows-1}.
     *
     * @throws IllegalArgumentException naming the first record whose matrix, row or signal is out of range
     */
    public static ConstraintRows of(Coefficients coefficients, int rows, int nVars) {
        if (rows <= 0 || nVars <= 0) {
            throw new IllegalArgumentException(rows + " rows over " + nVars + " signals");
        }
        PrimeField fr = coefficients.field();
        Arena arena = Arena.ofShared();
        try {
            ConstraintRows built = new ConstraintRows(fr, rows, nVars, coefficients.count(), arena);
            built.fill(coefficients);
            return built;
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private void fill(Coefficients coefficients) {
        MemorySegment records = coefficients.records();
        int valueBytes = fr.bytes();
        long recordBytes = Coefficients.recordBytes(fr);
        // Counts land one slot to the right, so that the running sum leaves each slot's start in place.
        starts.fill((byte) 0);
        for (int i = 0; i < entries; i++) {
            int slot = slot(records, i, recordBytes);
            starts.setAtIndex(U32, slot + 1L, starts.getAtIndex(U32, slot + 1L) + 1);
        }
        int running = 0;
        for (long s = 0; s <= 2L * rows; s++) {
            running += starts.getAtIndex(U32, s);
            starts.setAtIndex(U32, s, running);
        }
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment cursor = scratch.allocate(startsBytes(rows), 8);
            cursor.copyFrom(starts);
            for (int i = 0; i < entries; i++) {
                long base = i * recordBytes;
                int slot = slot(records, i, recordBytes);
                int k = cursor.getAtIndex(U32, slot);
                cursor.setAtIndex(U32, slot, k + 1);
                signals.setAtIndex(U32, k, records.get(U32, base + 8));
                MemorySegment.copy(records, base + 12, values, (long) k * valueBytes, valueBytes);
            }
        }
    }

    /** {@code 2·row + matrix} of record {@code i}, after checking its matrix, row and signal. */
    private int slot(MemorySegment records, int i, long recordBytes) {
        long base = i * recordBytes;
        int matrix = records.get(U32, base);
        int row = records.get(U32, base + 4);
        int signal = records.get(U32, base + 8);
        if (matrix != Coefficients.A && matrix != Coefficients.B) {
            throw new IllegalArgumentException("coefficient " + i + ": matrix id " + matrix + " is neither A nor B");
        }
        if (row < 0 || row >= rows) {
            throw new IllegalArgumentException("coefficient " + i + ": row " + Integer.toUnsignedString(row)
                    + " outside the domain of " + rows);
        }
        if (signal < 0 || signal >= nVars) {
            throw new IllegalArgumentException("coefficient " + i + ": signal " + Integer.toUnsignedString(signal)
                    + " outside the witness of " + nVars);
        }
        return 2 * row + matrix;
    }

    /** Bytes of the row starts of {@code rows} rows: {@code 2·rows + 1} words. */
    public static long startsBytes(int rows) {
        return 4L * (2L * rows + 1);
    }

    /** Bytes the layout takes for {@code rows} rows and {@code entries} entries of {@code valueBytes}-byte values. */
    public static long byteSize(int rows, long entries, int valueBytes) {
        return startsBytes(rows) + entries * (4L + valueBytes);
    }

    /**
     * The most host memory building the layout takes: the layout and the counting sort's cursor (one more starts
     * array). At most the zkey's own size: per entry 4 + n8 bytes against the zkey's 12 + n8 per coefficient record,
     * and 16 bytes per row against the zkey's H section, one G1 point (64 bytes or more) per row.
     */
    public static long hostBytes(int rows, long entries, int valueBytes) {
        return byteSize(rows, entries, valueBytes) + startsBytes(rows);
    }

    /** Bytes this layout takes (starts, signals, values). */
    public long byteSize() {
        return starts.byteSize() + signals.byteSize() + values.byteSize();
    }

    /** The domain size N: rows {@code 0..N-1}, those past the constraints empty. */
    public int rows() {
        return rows;
    }

    /** The witness length the signals index. */
    public int nVars() {
        return nVars;
    }

    /** Entries of A and B together (the key's coefficient count). */
    public int entries() {
        return entries;
    }

    /** {@code 2·rows + 1} u32 words: where each row's A and B entries start. */
    public MemorySegment starts() {
        return starts;
    }

    /** {@link #entries()} u32 witness indices. */
    public MemorySegment signals() {
        return signals;
    }

    /** {@link #entries()} values of {@code n8r} bytes, each {@code coef·R²} as the zkey stores it. */
    public MemorySegment values() {
        return values;
    }

    /** The first entry of {@code row} in {@code matrix} ({@link Coefficients#A} or {@link Coefficients#B}). */
    public int start(int row, int matrix) {
        return starts.getAtIndex(U32, 2L * row + matrix);
    }

    /** One past the last entry of {@code row} in {@code matrix}. */
    public int end(int row, int matrix) {
        return starts.getAtIndex(U32, 2L * row + matrix + 1);
    }

    /**
     * a = A·w, b = B·w and c = a∘b of {@code witness} into three vectors of {@link #rows()} elements whose memory
     * comes from {@code allocate} (called three times with one vector's byte size), as {@link Synthesis#evaluate}.
     */
    public Synthesized evaluate(Witness witness, LongFunction<MemorySegment> allocate) {
        if (witness.size() != nVars) {
            throw new IllegalArgumentException("witness has " + witness.size() + " values but the rows index "
                    + nVars);
        }
        PrimeField f = witness.curve().fr();
        if (!f.modulus().equals(fr.modulus())) {
            throw new IllegalArgumentException("witness over " + witness.curve() + ", rows over another field");
        }
        long bytes = FieldVector.byteSize(f, rows);
        FieldVector a = FieldVector.wrap(f, allocate.apply(bytes).asSlice(0, bytes));
        FieldVector b = FieldVector.wrap(f, allocate.apply(bytes).asSlice(0, bytes));
        FieldVector c = FieldVector.wrap(f, allocate.apply(bytes).asSlice(0, bytes));
        evaluate(f, witness.canonical(), a, b, c);
        return new Synthesized(a, b, c);
    }

    /** The host evaluation: one row at a time, rows split across threads (each row written by one thread). */
    private void evaluate(PrimeField f, MemorySegment w, FieldVector a, FieldVector b, FieldVector c) {
        int limbs = f.limbs();
        ParallelRange.forEach(rows, 1024, (from, to) -> {
            // a at 0, b at limbs, witness value at 2·limbs, coefficient at 3·limbs
            long[] s = new long[4 * limbs];
            for (int row = (int) from; row < to; row++) {
                sum(f, w, row, Coefficients.A, s, 0);
                sum(f, w, row, Coefficients.B, s, limbs);
                a.set(row, s, 0);
                b.set(row, s, limbs);
                f.mul(s, 0, s, limbs, s, 0);
                c.set(row, s, 0);
            }
        });
    }

    private void sum(PrimeField f, MemorySegment w, int row, int matrix, long[] s, int acc) {
        int limbs = f.limbs();
        f.setZero(s, acc);
        for (int k = start(row, matrix), end = end(row, matrix); k < end; k++) {
            long signal = Integer.toUnsignedLong(signals.getAtIndex(U32, k));
            SegmentLimbs.read(w, signal * 8 * limbs, limbs, s, 2 * limbs);
            if (f.isZero(s, 2 * limbs)) {
                continue; // many circuit signals are 0: skip the multiplication
            }
            SegmentLimbs.read(values, (long) k * 8 * limbs, limbs, s, 3 * limbs);
            f.mul(s, 3 * limbs, s, 2 * limbs, s, 2 * limbs);
            f.add(s, acc, s, 2 * limbs, s, acc);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
