package io.proofline.algebra.field;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

import java.math.BigInteger;

/**
 * Montgomery multiplication of many independent elements of a prime field at once, one element per long lane of
 * the JDK Vector API (issues #3, #22). Elements are held in structure-of-arrays form: {@link #limbs()} limbs of 29
 * bits, limb k of element e at index {@code k·stride + e}.
 *
 * <p>The straight-line kernels are generated per modulus shape by {@code scripts/gen-lane-montgomery.py}:
 * {@link LaneMontgomery254} (254-bit moduli in 4 words, BN254 𝔽q and 𝔽r) and {@link LaneMontgomery381} (381-bit in
 * 6 words, BLS12-381 𝔽q). This class holds what they share: the API, and the constants derived from the modulus.
 *
 * <p><b>Forms.</b> The <i>lane form</i> of x is any value ≡ x·R' mod p (R' = 2^(29·limbs)) below 2^{@link #boundBits},
 * not reduced further, a set closed under {@link #mulGroup} (see the subclasses for the bounds). The <i>plain lane
 * form</i> is the field's 64-bit Montgomery value x·2^(64·words) itself, only split into 29-bit limbs: a plain
 * operand makes {@link #mulGroup} return a plain result, which converts back without the division by the scale.
 *
 * <p>Not thread-safe in general: the 381-bit kernel hands limbs between the halves of a multiplication through scratch
 * in the instance (see the generator). Use one instance per thread.
 */
public abstract sealed class LaneMontgomery permits LaneMontgomery254, LaneMontgomery381 {

    /** The widest long species of this machine: 8 lanes with AVX-512. */
    public static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    /** Elements multiplied per vector operation. */
    public static final int LANES = SPECIES.length();
    /** Bits per limb in lane form. */
    public static final int LIMB_BITS = 29;

    static final long LIMB_MASK = (1L << LIMB_BITS) - 1;

    protected final PrimeField field;
    private final int limbs;
    private final int boundBits;
    /** p and 2p in the field's 64-bit words. */
    protected final long[] p, twoP;
    /** p and 2p in 29-bit limbs. */
    protected final long[] p29, twoP29;
    /** K·p in 29-bit limbs, the offset of {@link #subGroup}: the smallest multiple of p above every product. */
    protected final long[] subOffsetP29;
    /** −p⁻¹ mod 2^29. */
    protected final long pInv29;

    /**
     * The kernel for {@code field}.
     *
     * @throws IllegalArgumentException where no generated shape fits the modulus ({@link #supports})
     */
    public static LaneMontgomery of(PrimeField field) {
        int bits = field.modulus().bitLength();
        if (field.limbs() == LaneMontgomery254.WORDS && bits == 254) {
            return new LaneMontgomery254(field);
        }
        if (field.limbs() == LaneMontgomery381.WORDS && bits == 381) {
            return new LaneMontgomery381(field);
        }
        throw new IllegalArgumentException(field.name() + ": lane Montgomery needs a 254-bit modulus in 4 words or a "
                + "381-bit one in 6 (this one has " + bits + " bits in " + field.limbs() + ")");
    }

    /**
     * Whether {@link #of} has a kernel for {@code field}. Exact bit lengths, not upper bounds: a shape's lane-form
     * bound needs p below 2^bits, and its conversion back (one reduction from below 3p) needs p above 2^(bits−1).
     */
    public static boolean supports(PrimeField field) {
        int bits = field.modulus().bitLength();
        return field.limbs() == LaneMontgomery254.WORDS && bits == 254
                || field.limbs() == LaneMontgomery381.WORDS && bits == 381;
    }

    /**
     * Whether lanes beat the scalar 64-bit path for {@code field} on this machine's vector width, as {@code bench lanes}
     * measures it (docs/BENCHMARKS.md): the 254-bit shape (9 limbs) wins from 4 lanes (AVX2) up; the 381-bit shape
     * (14 limbs, 196 limb products against 36 scalar ones) needs 8 (AVX-512) and loses its MSMs with 4.
     */
    public static boolean pays(PrimeField field) {
        int bits = field.modulus().bitLength();
        return supports(field) && LANES >= (bits == 254 ? 4 : 8);
    }

    LaneMontgomery(PrimeField field, int limbs, int boundBits) {
        this.field = field;
        this.limbs = limbs;
        this.boundBits = boundBits;
        BigInteger m = field.modulus();
        int words = field.limbs();
        this.p = field.modulusLimbs();
        this.twoP = PrimeField.toLimbs(m.shiftLeft(1), words);
        this.p29 = split29(m, limbs);
        this.twoP29 = split29(m.shiftLeft(1), limbs);
        this.pInv29 = field.montgomeryInverse() & LIMB_MASK;
        // mulGroup on inputs below B = 2^boundBits returns values below B²/R' + p; a − b + K·p with K·p above that
        // bound is non-negative for b a product, and stays below B for a a product
        BigInteger bound = BigInteger.ONE.shiftLeft(boundBits);
        int rBits = LIMB_BITS * limbs;
        BigInteger product = BigInteger.ONE.shiftLeft(2 * boundBits - rBits).add(m);
        BigInteger offset = product.add(m).subtract(BigInteger.ONE).divide(m).multiply(m);
        if (product.add(offset).compareTo(bound) >= 0
                || BigInteger.ONE.shiftLeft(rBits - 64 * words).multiply(m).compareTo(bound) > 0) {
            throw new IllegalArgumentException(field.name() + ": lane-form bound 2^" + boundBits + " does not hold");
        }
        this.subOffsetP29 = split29(offset, limbs);
    }

    private static long[] split29(BigInteger v, int limbs) {
        long[] r = new long[limbs];
        for (int k = 0; k < limbs; k++) {
            r[k] = v.shiftRight(LIMB_BITS * k).longValue() & LIMB_MASK;
        }
        return r;
    }

    /** Lane indices of the first words of LANES consecutive elements {@code elementStride} longs apart. */
    static int[] starts(int elementStride) {
        int[] r = new int[LANES];
        for (int i = 0; i < LANES; i++) {
            r[i] = elementStride * i;
        }
        return r;
    }

    public PrimeField field() {
        return field;
    }

    /** Limbs per element in lane form: a lane array holds {@code limbs()·stride} longs. */
    public int limbs() {
        return limbs;
    }

    /** Lane-form values are below 2^boundBits. */
    public int boundBits() {
        return boundBits;
    }

    /**
     * r = a·b·R'⁻¹ for elements [from, from + count) of the lane arrays; count is a multiple of {@link #LANES}. Inputs
     * in lane form (normalised limbs), result likewise. r may alias a or b.
     */
    public final void mul(long[] a, long[] b, long[] r, int stride, int from, int count) {
        if (count % LANES != 0) {
            throw new IllegalArgumentException("count " + count + " is not a multiple of " + LANES);
        }
        for (int e = from; e < from + count; e += LANES) {
            mulGroup(a, e, b, e, r, e, stride);
        }
    }

    /**
     * One vector's worth: r = a·b·R'⁻¹ for the {@link #LANES} elements at lane indices {@code ae}, {@code be},
     * {@code re} (same stride). Lane form times lane form gives lane form; lane form times plain lane form gives
     * plain lane form ({@link #toPlainLanes}). Every input is read before r is written, so r may overlap a or b.
     */
    public abstract void mulGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride);

    /**
     * Converts {@code count} elements in 64-bit Montgomery form (from {@code src[srcOff]}, consecutive) to lane form at
     * lane index {@code to} onwards.
     */
    public final void toLanes(long[] src, int srcOff, int count, long[] dst, int stride, int to) {
        toLanes(src, srcOff, field.limbs(), count, dst, stride, to);
    }

    /**
     * As {@link #toLanes(long[], int, int, long[], int, int)} for elements {@code elementStride} longs apart: twice
     * the words with {@code srcOff} at c0 or c1 converts one coefficient of 𝔽q² elements.
     */
    public abstract void toLanes(long[] src, int srcOff, int elementStride, int count, long[] dst, int stride, int to);

    /**
     * Converts {@code count} lane-form elements from lane index {@code from} back to reduced 64-bit Montgomery form at
     * {@code dst[dstOff]}, consecutive. Reads whole vectors (see {@link #fromPlainLanes}).
     */
    public final void fromLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff) {
        fromLanes(src, stride, from, count, dst, dstOff, field.limbs());
    }

    /** As {@link #fromLanes(long[], int, int, int, long[], int)}, writing elements {@code elementStride} longs apart. */
    public abstract void fromLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff, int elementStride);

    /**
     * {@link #fromLanes(long[], int, int, int, long[], int, int)} in scalar code, for a handful of elements (a batch's
     * chain totals): called once per batch, the vector version would run interpreted (allocating every vector) for
     * thousands of calls before C2 compiles it, which cost ~100 ms per MSM in the first MSMs of a JVM.
     */
    public abstract void fromLanesScalar(long[] src, int stride, int from, int count, long[] dst, int dstOff,
                                         int elementStride);

    /** Converts {@code count} consecutive elements in 64-bit Montgomery form to <i>plain</i> lane form. */
    public abstract void toPlainLanes(long[] src, int srcOff, int count, long[] dst, int stride, int to);

    /**
     * Converts {@code count} plain lane-form elements whose value is below 3p (a product of a lane-form value and a
     * plain one is) back to reduced 64-bit Montgomery form. Reads whole vectors: the lane arrays must extend to the
     * next multiple of {@link #LANES} after {@code from + count}.
     */
    public abstract void fromPlainLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff);

    /** r = a + b for one vector of lane-form values (normalised limbs); the caller keeps the sum below the bound. */
    public abstract void addGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride);

    /**
     * r = a − b + K·p for one vector of lane-form values: ≡ a − b, non-negative for b a {@link #mulGroup} result, and
     * a lane-form value when a is such a result too.
     */
    public abstract void subGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride);

    /**
     * r = a·2^scale for one vector of elements in plain lane form below 2p: the lane form of the same element, by
     * shifting limbs.
     */
    public abstract void scaleGroup(long[] a, int ae, long[] r, int re, int stride);
}
