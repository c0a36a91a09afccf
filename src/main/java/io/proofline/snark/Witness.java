package io.proofline.snark;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Objects;

/**
 * A full assignment {@code w} of a circuit ({@code w[0] = 1}, then the public signals, then the private ones): the
 * {@code WITNESS} buffer of the pipeline. Values are kept off-heap exactly as a {@code .wtns} stores them, canonical
 * little-endian integers of {@code n8 = 8·limbs} bytes, below r (checked when the witness is made). That is the form
 * the MSMs want for their scalars ({@link #canonical()}); the constraint evaluation wants Montgomery limbs
 * ({@link #montgomery(int, long[], int)}, {@link #montgomeryLimbs()}).
 *
 * <p>Owns its arena (or shares the one of a mapped file): {@link #close()} frees the values.
 */
public final class Witness implements AutoCloseable {

    private final SnarkCurve curve;
    private final int size;
    private final MemorySegment values;
    private final Arena arena;

    /**
     * @param values {@code size} canonical values of {@code curve.fr().bytes()} bytes each, already checked to be
     *               below r
     * @param arena  the arena that owns {@code values}; closed by {@link #close()} (may be {@code null} when the
     *               caller owns the memory)
     */
    public Witness(SnarkCurve curve, int size, MemorySegment values, Arena arena) {
        this.curve = Objects.requireNonNull(curve);
        this.size = size;
        this.values = Objects.requireNonNull(values);
        this.arena = arena;
        if (values.byteSize() != (long) size * curve.fr().bytes()) {
            throw new IllegalArgumentException("witness: " + values.byteSize() + " bytes for " + size + " values");
        }
    }

    /** A witness holding {@code w} (each reduced mod r), in a fresh arena of its own. */
    public static Witness of(SnarkCurve curve, BigInteger... w) {
        PrimeField fr = curve.fr();
        Arena arena = Arena.ofShared();
        MemorySegment seg = arena.allocate((long) w.length * fr.bytes(), 8);
        for (int i = 0; i < w.length; i++) {
            long[] limbs = PrimeField.toLimbs(w[i].mod(fr.modulus()), fr.limbs());
            SegmentLimbs.write(limbs, 0, fr.limbs(), seg, (long) i * fr.bytes());
        }
        return new Witness(curve, w.length, seg, arena);
    }

    public SnarkCurve curve() {
        return curve;
    }

    /** Number of values {@code m} (nVars of the circuit). */
    public int size() {
        return size;
    }

    /** Bytes the values occupy. */
    public long byteSize() {
        return values.byteSize();
    }

    /** The values, canonical little-endian, {@code curve().fr().bytes()} bytes each (the MSM scalars). */
    public MemorySegment canonical() {
        return values;
    }

    /** Value {@code i} as canonical limbs into {@code dst[off..]}. */
    public void canonical(int i, long[] dst, int off) {
        SegmentLimbs.read(values, (long) i * curve.fr().bytes(), curve.fr().limbs(), dst, off);
    }

    /** Value {@code i} as Montgomery limbs into {@code dst[off..]}. */
    public void montgomery(int i, long[] dst, int off) {
        canonical(i, dst, off);
        curve.fr().toMontgomery(dst, off, dst, off);
    }

    /** All values as Montgomery limbs, {@code limbs} longs each, in one flat array (on the heap). */
    public long[] montgomeryLimbs() {
        int limbs = curve.fr().limbs();
        long[] r = new long[Math.multiplyExact(size, limbs)];
        for (int i = 0; i < size; i++) {
            montgomery(i, r, i * limbs);
        }
        return r;
    }

    /** Value {@code i} as an integer (convenience for tests and JSON output). */
    public BigInteger value(int i) {
        long[] c = new long[curve.fr().limbs()];
        canonical(i, c, 0);
        return PrimeField.limbsToBigInteger(c, 0, c.length);
    }

    /** {@code w[1..nPublic]}: the public signals. */
    public BigInteger[] publicSignals(int nPublic) {
        BigInteger[] r = new BigInteger[nPublic];
        for (int i = 0; i < nPublic; i++) {
            r[i] = value(i + 1);
        }
        return r;
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }
}
