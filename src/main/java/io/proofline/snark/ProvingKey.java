package io.proofline.snark;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A Groth16 proving key (the contents of a snarkjs {@code .zkey}): the {@code KEY_HOST} buffer class of the pipeline.
 *
 * <p>Points are affine with Montgomery coordinates in snarkjs's layout — G1 {@code x‖y}, G2
 * {@code x.c0‖x.c1‖y.c0‖y.c1}, each coordinate {@code fq.limbs()} little-endian 64-bit words, the point at infinity
 * all zeros. The few header points are {@code long[]} in that layout; the large per-variable sections stay where the
 * file was mapped, as {@link MemorySegment} slices that the MSM reads in place (with
 * {@link SegmentLimbs#LIMB}). Nothing here copies them onto the heap.
 *
 * <p>Notation (Groth16 paper): τ the toxic secret, {@code uᵢ, vᵢ, wᵢ} the QAP polynomials of variable i, Z the
 * vanishing polynomial of the domain, {@code [x]₁ = x·G₁}, {@code [x]₂ = x·G₂}.
 *
 * <p>Owns the arena of its mapping: {@link #close()} unmaps the file. Not usable after that.
 */
public final class ProvingKey implements AutoCloseable {

    private final SnarkCurve curve;
    private final int nVars;
    private final int nPublic;
    private final int domainSize;
    private final long[] alpha1;
    private final long[] beta1;
    private final long[] beta2;
    private final long[] gamma2;
    private final long[] delta1;
    private final long[] delta2;
    private final long[] ic;
    private final Coefficients coefficients;
    private final MemorySegment a;
    private final MemorySegment b1;
    private final MemorySegment b2;
    private final MemorySegment c;
    private final MemorySegment h;
    private final MemorySegment contributions;
    private final Arena arena;
    private final long byteSize;

    private ProvingKey(Builder b) {
        this.curve = Objects.requireNonNull(b.curve, "curve");
        this.nVars = b.nVars;
        this.nPublic = b.nPublic;
        this.domainSize = b.domainSize;
        if (nPublic < 0 || nVars < nPublic + 1 || domainSize <= 0 || Integer.bitCount(domainSize) != 1) {
            throw new IllegalArgumentException("bad key shape: nVars " + nVars + ", nPublic " + nPublic
                    + ", domainSize " + domainSize);
        }
        int g1 = 2 * curve.fq().limbs();
        int g2 = 2 * g1;
        this.alpha1 = requireLength(b.alpha1, g1, "[α]₁");
        this.beta1 = requireLength(b.beta1, g1, "[β]₁");
        this.beta2 = requireLength(b.beta2, g2, "[β]₂");
        this.gamma2 = requireLength(b.gamma2, g2, "[γ]₂");
        this.delta1 = requireLength(b.delta1, g1, "[δ]₁");
        this.delta2 = requireLength(b.delta2, g2, "[δ]₂");
        this.ic = requireLength(b.ic, (nPublic + 1) * g1, "IC");
        this.coefficients = Objects.requireNonNull(b.coefficients, "coefficients");
        this.a = requireBytes(b.a, (long) nVars * curve.g1Bytes(), "A");
        this.b1 = requireBytes(b.b1, (long) nVars * curve.g1Bytes(), "B1");
        this.b2 = requireBytes(b.b2, (long) nVars * curve.g2Bytes(), "B2");
        this.c = requireBytes(b.c, (long) (nVars - nPublic - 1) * curve.g1Bytes(), "C");
        this.h = requireBytes(b.h, (long) domainSize * curve.g1Bytes(), "H");
        this.contributions = b.contributions;
        this.arena = b.arena;
        this.byteSize = b.byteSize > 0 ? b.byteSize
                : a.byteSize() + b1.byteSize() + b2.byteSize() + c.byteSize() + h.byteSize()
                        + coefficients.records().byteSize();
    }

    public static Builder builder() {
        return new Builder();
    }

    private static long[] requireLength(long[] v, int length, String what) {
        Objects.requireNonNull(v, what);
        if (v.length != length) {
            throw new IllegalArgumentException(what + ": " + v.length + " limbs, expected " + length);
        }
        return v.clone();
    }

    private static MemorySegment requireBytes(MemorySegment s, long bytes, String what) {
        Objects.requireNonNull(s, what);
        if (s.byteSize() != bytes) {
            throw new IllegalArgumentException(what + ": " + s.byteSize() + " bytes, expected " + bytes);
        }
        return s;
    }

    public SnarkCurve curve() {
        return curve;
    }

    /** m: number of witness values, including {@code w[0] = 1}. */
    public int nVars() {
        return nVars;
    }

    /** ℓ: number of public signals (not counting {@code w[0]}). */
    public int nPublic() {
        return nPublic;
    }

    /** N: the size of the evaluation domain, a power of two. */
    public int domainSize() {
        return domainSize;
    }

    /** {@code [α]₁} (a copy). */
    public long[] alpha1() {
        return alpha1.clone();
    }

    /** {@code [β]₁} (a copy). */
    public long[] beta1() {
        return beta1.clone();
    }

    /** {@code [β]₂} (a copy). */
    public long[] beta2() {
        return beta2.clone();
    }

    /** {@code [γ]₂} (a copy). */
    public long[] gamma2() {
        return gamma2.clone();
    }

    /** {@code [δ]₁} (a copy). */
    public long[] delta1() {
        return delta1.clone();
    }

    /** {@code [δ]₂} (a copy). */
    public long[] delta2() {
        return delta2.clone();
    }

    /**
     * {@code IC[i] = [(β·uᵢ(τ) + α·vᵢ(τ) + wᵢ(τ))/γ]₁} for the public variables {@code i = 0..ℓ}: {@code ℓ+1} G1 points
     * flat (a copy).
     */
    public long[] ic() {
        return ic.clone();
    }

    /** IC point {@code i} as G1 limbs (a copy). */
    public long[] ic(int i) {
        int g1 = 2 * curve.fq().limbs();
        long[] r = new long[g1];
        System.arraycopy(ic, i * g1, r, 0, g1);
        return r;
    }

    /** The sparse A and B matrices (section 4). */
    public Coefficients coefficients() {
        return coefficients;
    }

    /** {@code [uᵢ(τ)]₁} for every variable: nVars G1 points. */
    public MemorySegment a() {
        return a;
    }

    /** {@code [vᵢ(τ)]₁} for every variable: nVars G1 points. */
    public MemorySegment b1() {
        return b1;
    }

    /** {@code [vᵢ(τ)]₂} for every variable: nVars G2 points. */
    public MemorySegment b2() {
        return b2;
    }

    /**
     * {@code [(β·uᵢ(τ) + α·vᵢ(τ) + wᵢ(τ))/δ]₁} for the private variables {@code i = ℓ+1..m−1}: nVars − ℓ − 1 G1 points.
     */
    public MemorySegment c() {
        return c;
    }

    /**
     * The H points: snarkjs's {@code [τ^(2i+1)]₁}-derived Lagrange points of the odd coset of the 2N domain, divided
     * by δ (domainSize G1 points); with them no division by Z is needed (DESIGN §7).
     */
    public MemorySegment h() {
        return h;
    }

    /** The raw contributions section (10): kept so that writing a key back preserves it; may be empty. */
    public MemorySegment contributions() {
        return contributions;
    }

    /** Bytes of host memory this key holds (the mapped file): what the KEY_HOST buffer class counts. */
    public long byteSize() {
        return byteSize;
    }

    /** Unmaps the key's memory. */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }

    /** Assembles a key; every array and segment is checked against the shape (nVars, nPublic, domainSize). */
    public static final class Builder {
        private SnarkCurve curve;
        private int nVars;
        private int nPublic;
        private int domainSize;
        private long[] alpha1;
        private long[] beta1;
        private long[] beta2;
        private long[] gamma2;
        private long[] delta1;
        private long[] delta2;
        private long[] ic;
        private Coefficients coefficients;
        private MemorySegment a;
        private MemorySegment b1;
        private MemorySegment b2;
        private MemorySegment c;
        private MemorySegment h;
        private MemorySegment contributions = MemorySegment.ofArray(new byte[0]);
        private Arena arena;
        private long byteSize;

        private Builder() {
        }

        public Builder curve(SnarkCurve curve) {
            this.curve = curve;
            return this;
        }

        public Builder shape(int nVars, int nPublic, int domainSize) {
            this.nVars = nVars;
            this.nPublic = nPublic;
            this.domainSize = domainSize;
            return this;
        }

        public Builder alpha1(long[] p) {
            this.alpha1 = p;
            return this;
        }

        public Builder beta1(long[] p) {
            this.beta1 = p;
            return this;
        }

        public Builder beta2(long[] p) {
            this.beta2 = p;
            return this;
        }

        public Builder gamma2(long[] p) {
            this.gamma2 = p;
            return this;
        }

        public Builder delta1(long[] p) {
            this.delta1 = p;
            return this;
        }

        public Builder delta2(long[] p) {
            this.delta2 = p;
            return this;
        }

        public Builder ic(long[] points) {
            this.ic = points;
            return this;
        }

        public Builder coefficients(Coefficients coefficients) {
            this.coefficients = coefficients;
            return this;
        }

        public Builder a(MemorySegment points) {
            this.a = points;
            return this;
        }

        public Builder b1(MemorySegment points) {
            this.b1 = points;
            return this;
        }

        public Builder b2(MemorySegment points) {
            this.b2 = points;
            return this;
        }

        public Builder c(MemorySegment points) {
            this.c = points;
            return this;
        }

        public Builder h(MemorySegment points) {
            this.h = points;
            return this;
        }

        public Builder contributions(MemorySegment raw) {
            this.contributions = raw;
            return this;
        }

        /** The arena that owns the segments; {@link ProvingKey#close()} closes it. */
        public Builder arena(Arena arena) {
            this.arena = arena;
            return this;
        }

        /** Host bytes to report (the mapped file's size); by default the sum of the large sections. */
        public Builder byteSize(long byteSize) {
            this.byteSize = byteSize;
            return this;
        }

        public ProvingKey build() {
            return new ProvingKey(this);
        }
    }
}
