package io.proofline.algebra.poly;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;

/**
 * A vector of prime-field elements backed by one {@link MemorySegment}: element {@code i} is the {@code limbs()}
 * little-endian 64-bit limbs at byte offset {@code i·8·limbs}, in Montgomery form unless a method says otherwise.
 * That is snarkjs's LE Montgomery layout, so a vector can wrap a section of a memory-mapped file directly.
 *
 * <p>There is no object per element. The bulk operations run in parallel over index ranges (common ForkJoin pool);
 * each chunk takes its scratch limbs once, so the loops allocate nothing per element. A vector is not synchronized:
 * callers must not run two bulk operations that write the same vector at once. Because worker threads touch the
 * memory, it must come from a shared or global arena (or the heap), never a confined one.
 */
public final class FieldVector {

    /** A limb: 8 bytes, little-endian, any alignment (sections of mapped files are only byte-aligned). */
    static final ValueLayout.OfLong LIMB = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Smallest chunk handed to one thread: below this the fork/join overhead exceeds the work. */
    private static final long GRAIN = 1 << 12;

    private final PrimeField field;
    private final MemorySegment segment;
    private final long length;
    private final int limbs;
    private final long stride;

    private FieldVector(PrimeField field, MemorySegment segment, long length) {
        this.field = field;
        this.segment = segment;
        this.length = length;
        this.limbs = field.limbs();
        this.stride = 8L * limbs;
    }

    /** Bytes needed for {@code n} elements of {@code field}. */
    public static long byteSize(PrimeField field, long n) {
        return n * field.bytes();
    }

    /** A zeroed vector of {@code n} elements allocated from {@code arena} (off-heap). */
    public static FieldVector allocate(PrimeField field, long n, Arena arena) {
        return new FieldVector(field, arena.allocate(byteSize(field, n), 8), n);
    }

    /** A zeroed vector of {@code n} elements on the Java heap (tests, small tables). */
    public static FieldVector onHeap(PrimeField field, int n) {
        return new FieldVector(field, MemorySegment.ofArray(new long[Math.multiplyExact(n, field.limbs())]), n);
    }

    /** Views {@code segment} as a vector; its size must be a whole number of elements. */
    public static FieldVector wrap(PrimeField field, MemorySegment segment) {
        if (segment.byteSize() % field.bytes() != 0) {
            throw new IllegalArgumentException("segment of " + segment.byteSize() + " bytes is not a whole number of "
                    + field.bytes() + "-byte elements");
        }
        return new FieldVector(field, segment, segment.byteSize() / field.bytes());
    }

    public PrimeField field() {
        return field;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long length() {
        return length;
    }

    /** The elements {@code [from, from + count)} as a vector sharing this one's memory. */
    public FieldVector slice(long from, long count) {
        return new FieldVector(field, segment.asSlice(from * stride, count * stride), count);
    }

    // ---- single elements ----------------------------------------------------------------------------------------

    /** Copies element {@code i}'s limbs into {@code dst[off..]}. */
    public void get(long i, long[] dst, int off) {
        long base = i * stride;
        for (int k = 0; k < limbs; k++) {
            dst[off + k] = segment.get(LIMB, base + 8L * k);
        }
    }

    /** Stores {@code src[off..]} as element {@code i}. */
    public void set(long i, long[] src, int off) {
        long base = i * stride;
        for (int k = 0; k < limbs; k++) {
            segment.set(LIMB, base + 8L * k, src[off + k]);
        }
    }

    /** Element {@code i} as an integer in [0, p), reading the limbs as Montgomery form (slow: tests, output). */
    public BigInteger getBigInteger(long i) {
        long[] e = new long[limbs];
        get(i, e, 0);
        return field.toBigInteger(e, 0);
    }

    /** Sets element {@code i} to the Montgomery form of {@code x mod p} (slow: tests, setup). */
    public void setBigInteger(long i, BigInteger x) {
        set(i, field.fromBigInteger(x), 0);
    }

    // ---- bulk operations ------------------------------------------------------------------------------------------

    /** Sets every element to zero. */
    public void clear() {
        segment.fill((byte) 0);
    }

    /** Copies {@code src} (same length) into this vector. */
    public void copyFrom(FieldVector src) {
        checkSameShape(src);
        ParallelRange.forEach(length, GRAIN, (from, to) ->
                MemorySegment.copy(src.segment, from * stride, segment, from * stride, (to - from) * stride));
    }

    /** this = a ∘ b (element-wise product). Any of the vectors may be the same. */
    public void mul(FieldVector a, FieldVector b) {
        checkSameShape(a);
        checkSameShape(b);
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[2 * limbs];
            for (long i = from; i < to; i++) {
                a.get(i, s, 0);
                b.get(i, s, limbs);
                field.mul(s, 0, s, limbs, s, 0);
                set(i, s, 0);
            }
        });
    }

    /** this = a + b. */
    public void add(FieldVector a, FieldVector b) {
        checkSameShape(a);
        checkSameShape(b);
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[2 * limbs];
            for (long i = from; i < to; i++) {
                a.get(i, s, 0);
                b.get(i, s, limbs);
                field.add(s, 0, s, limbs, s, 0);
                set(i, s, 0);
            }
        });
    }

    /** this = a − b. */
    public void sub(FieldVector a, FieldVector b) {
        checkSameShape(a);
        checkSameShape(b);
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[2 * limbs];
            for (long i = from; i < to; i++) {
                a.get(i, s, 0);
                b.get(i, s, limbs);
                field.sub(s, 0, s, limbs, s, 0);
                set(i, s, 0);
            }
        });
    }

    /** this = a ∘ b − c, fused so that each element is loaded and stored once (the quotient's last step). */
    public void mulSub(FieldVector a, FieldVector b, FieldVector c) {
        checkSameShape(a);
        checkSameShape(b);
        checkSameShape(c);
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[3 * limbs];
            for (long i = from; i < to; i++) {
                a.get(i, s, 0);
                b.get(i, s, limbs);
                c.get(i, s, 2 * limbs);
                field.mul(s, 0, s, limbs, s, 0);
                field.sub(s, 0, s, 2 * limbs, s, 0);
                set(i, s, 0);
            }
        });
    }

    /** Multiplies every element by the constant {@code k} (Montgomery limbs). */
    public void scale(long[] k) {
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[limbs];
            for (long i = from; i < to; i++) {
                get(i, s, 0);
                field.mul(s, 0, k, 0, s, 0);
                set(i, s, 0);
            }
        });
    }

    /**
     * Multiplies element {@code i} by {@code c·gⁱ} (Montgomery limbs): the coset shift of a coefficient vector.
     * Each chunk starts from {@code c·g^from} (one exponentiation per chunk) and then steps by one multiplication, so
     * the cost is 2 multiplications per element plus a {@code log₂ n}-step power per chunk.
     */
    public void scaleByPowers(long[] c, long[] g) {
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[limbs];
            long[] power = new long[limbs];
            field.pow(g, 0, BigInteger.valueOf(from), power, 0);
            field.mul(power, 0, c, 0, power, 0);
            for (long i = from; i < to; i++) {
                get(i, s, 0);
                field.mul(s, 0, power, 0, s, 0);
                set(i, s, 0);
                field.mul(power, 0, g, 0, power, 0);
            }
        });
    }

    /**
     * Rewrites every element from Montgomery form {@code x·R} to its canonical limbs {@code x} (one multiplication by
     * the integer 1 each): the form MSM scalars and {@code .wtns} files use.
     */
    public void toCanonical() {
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[limbs];
            long[] integerOne = new long[limbs];
            integerOne[0] = 1;
            for (long i = from; i < to; i++) {
                get(i, s, 0);
                field.mul(s, 0, integerOne, 0, s, 0);
                set(i, s, 0);
            }
        });
    }

    /** Rewrites every element from canonical limbs {@code x < p} to Montgomery form {@code x·R}. */
    public void toMontgomery() {
        ParallelRange.forEach(length, GRAIN, (from, to) -> {
            long[] s = new long[limbs];
            for (long i = from; i < to; i++) {
                get(i, s, 0);
                field.toMontgomery(s, 0, s, 0);
                set(i, s, 0);
            }
        });
    }

    private void checkSameShape(FieldVector other) {
        if (other.field != field || other.length != length) {
            throw new IllegalArgumentException("vector shapes differ: " + field + "[" + length + "] vs "
                    + other.field + "[" + other.length + "]");
        }
    }
}
