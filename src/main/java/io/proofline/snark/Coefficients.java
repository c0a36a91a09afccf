package io.proofline.snark;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The sparse A and B matrices of a Groth16 proving key (section 4 of a {@code .zkey}), read in place from their
 * records {@code {u32 matrix, u32 row, u32 signal, value}} of {@code 12 + n8r} bytes.
 *
 * <p>snarkjs stores each value as the canonical integer {@code coef·R²} mod r (R = 2^(8·n8r)): "Montgomery of
 * Montgomery". Read as Montgomery limbs those words are the element {@code coef·R}, so one Montgomery reduction
 * ({@link PrimeField#fromMontgomery}) gives the Montgomery form of {@code coef}, which is what {@link #value} returns.
 * Besides the circuit's constraint rows, snarkjs adds {@code nPublic + 1} rows {@code A[nConstraints + s][s] = 1}
 * (they bind the public inputs).
 */
public final class Coefficients {

    /** Matrix id of A in the records. */
    public static final int A = 0;
    /** Matrix id of B in the records. */
    public static final int B = 1;

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final PrimeField fr;
    private final int count;
    private final MemorySegment records;
    private final int recordBytes;
    /** The canonical integer 1: multiplying by it in Montgomery form is one reduction (·R⁻¹). Read-only. */
    private final long[] unit;

    /**
     * @param records {@code count} records of {@code 12 + fr.bytes()} bytes each (the section after its u32 count)
     */
    public Coefficients(PrimeField fr, int count, MemorySegment records) {
        this.fr = fr;
        this.count = count;
        this.records = records;
        this.recordBytes = recordBytes(fr);
        this.unit = new long[fr.limbs()];
        this.unit[0] = 1;
        if (records.byteSize() != (long) count * recordBytes) {
            throw new IllegalArgumentException("coefficient records: " + records.byteSize() + " bytes for " + count
                    + " records of " + recordBytes);
        }
    }

    /** Fresh, zeroed storage for {@code count} records in {@code arena}, to be filled with {@link #set}. */
    public static Coefficients allocate(Arena arena, PrimeField fr, int count) {
        return new Coefficients(fr, count, arena.allocate((long) count * recordBytes(fr), 8));
    }

    /** Bytes of one record: three u32 then the value. */
    public static int recordBytes(PrimeField fr) {
        return 12 + fr.bytes();
    }

    public int count() {
        return count;
    }

    /** The scalar field Fr the values are elements of. */
    public PrimeField field() {
        return fr;
    }

    /** The raw records (the section body after its count), as a {@code .zkey} stores them. */
    public MemorySegment records() {
        return records;
    }

    /** {@link #A} or {@link #B}. */
    public int matrix(int i) {
        return records.get(U32, (long) i * recordBytes);
    }

    /** The constraint row (0 ≤ row < domainSize). */
    public int row(int i) {
        return records.get(U32, (long) i * recordBytes + 4);
    }

    /** The witness index (0 ≤ signal < nVars). */
    public int signal(int i) {
        return records.get(U32, (long) i * recordBytes + 8);
    }

    /** Writes the Montgomery form of coefficient {@code i} into {@code dst[off..]} (see the class comment). */
    public void value(int i, long[] dst, int off) {
        SegmentLimbs.read(records, (long) i * recordBytes + 12, fr.limbs(), dst, off);
        fr.mul(dst, off, unit, 0, dst, off);
    }

    /** Stores record {@code i}; {@code coef} is the Montgomery form of the coefficient (stored as coef·R²). */
    public void set(int i, int matrix, int row, int signal, long[] coef, int coefOff) {
        long base = (long) i * recordBytes;
        records.set(U32, base, matrix);
        records.set(U32, base + 4, row);
        records.set(U32, base + 8, signal);
        long[] stored = new long[fr.limbs()];
        fr.toMontgomery(coef, coefOff, stored, 0);
        SegmentLimbs.write(stored, 0, fr.limbs(), records, base + 12);
    }
}
