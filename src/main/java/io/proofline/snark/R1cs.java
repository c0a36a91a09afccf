package io.proofline.snark;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A rank-1 constraint system as circom writes it: constraints {@code (A·w)·(B·w) = C·w} over 𝔽r, each of A, B, C
 * a sparse linear combination of wires. Wire 0 is the constant 1, then {@code nPubOut} public outputs,
 * {@code nPubIn} public inputs, {@code nPrvIn} private inputs and the internal wires.
 *
 * <p>The constraints stay in the {@code .r1cs}'s own encoding, in the segment they were read from (the file
 * memory-mapped, for the service and the CLI): per linear combination a {@code u32} term count, then per term a
 * {@code u32} wire id and a canonical little-endian coefficient of {@code n8} bytes. Nothing of them is copied onto
 * the heap (a parse into arrays took about 36 bytes a term); the constraint check reads them in order, converting each
 * coefficient as it goes. The reader ({@code R1csReader}) has checked every count, wire id and coefficient.
 */
public final class R1cs {

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final SnarkCurve curve;
    private final int nWires;
    private final int nPubOut;
    private final int nPubIn;
    private final int nPrvIn;
    private final long nLabels;
    private final int nConstraints;
    private final MemorySegment constraints;

    /**
     * @param constraints the constraints section's body, already checked; it must stay readable as long as this
     *                    is used (a mapping of the file with an automatic arena is unmapped once this is unreachable)
     */
    public R1cs(SnarkCurve curve, int nWires, int nPubOut, int nPubIn, int nPrvIn, long nLabels, int nConstraints,
                MemorySegment constraints) {
        this.curve = Objects.requireNonNull(curve);
        this.nWires = nWires;
        this.nPubOut = nPubOut;
        this.nPubIn = nPubIn;
        this.nPrvIn = nPrvIn;
        this.nLabels = nLabels;
        this.nConstraints = nConstraints;
        this.constraints = Objects.requireNonNull(constraints);
    }

    public SnarkCurve curve() {
        return curve;
    }

    public int nWires() {
        return nWires;
    }

    public int nPubOut() {
        return nPubOut;
    }

    public int nPubIn() {
        return nPubIn;
    }

    public int nPrvIn() {
        return nPrvIn;
    }

    public long nLabels() {
        return nLabels;
    }

    public int nConstraints() {
        return nConstraints;
    }

    /** Public signals of a proof: outputs then public inputs (snarkjs's {@code nPublic}). */
    public int nPublic() {
        return nPubOut + nPubIn;
    }

    /** The bytes the constraints take in their segment (off the heap where the segment is a mapping). */
    public long constraintBytes() {
        return constraints.byteSize();
    }

    /**
     * The first constraint that {@code w} does not satisfy, or empty when it satisfies all.
     *
     * @throws IllegalArgumentException when {@code w} is over another curve or has not {@code nWires} values
     */
    public OptionalInt firstUnsatisfied(Witness w) {
        requireShape(w);
        Evaluation e = new Evaluation(w.montgomeryLimbs());
        for (int i = 0; i < nConstraints; i++) {
            if (!e.next()) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** A sentence saying how constraint {@code i} evaluates on {@code w} ("constraint 3: A·w = …"). */
    public String describe(int i, Witness w) {
        requireShape(w);
        Objects.checkIndex(i, nConstraints);
        Evaluation e = new Evaluation(w.montgomeryLimbs());
        for (int skipped = 0; skipped < i; skipped++) {
            e.skip();
        }
        boolean ok = e.next();
        PrimeField fr = curve.fr();
        return "constraint " + i + (ok ? " holds" : " fails") + ": A·w = " + fr.toDecimal(e.abc, 0)
                + ", B·w = " + fr.toDecimal(e.abc, fr.limbs()) + ", C·w = " + fr.toDecimal(e.abc, 2 * fr.limbs());
    }

    private void requireShape(Witness w) {
        if (w.curve() != curve) {
            throw new IllegalArgumentException("witness is over " + w.curve() + ", constraints over " + curve);
        }
        if (w.size() != nWires) {
            throw new IllegalArgumentException("witness has " + w.size() + " values, the circuit " + nWires + " wires");
        }
    }

    /** Walks the constraints in order, evaluating A·w, B·w, C·w of each into {@link #abc}. */
    private final class Evaluation {
        private final PrimeField fr = curve.fr();
        private final int limbs = fr.limbs();
        private final int n8 = 8 * limbs;
        private final long[] wm;
        final long[] abc = new long[3 * limbs];
        private final long[] coefficient = new long[limbs];
        private final long[] term = new long[limbs];
        private long pos;

        Evaluation(long[] wm) {
            this.wm = wm;
        }

        /** Evaluates the next constraint; whether (A·w)(B·w) = C·w. */
        boolean next() {
            for (int k = 0; k < 3; k++) {
                fr.setZero(abc, k * limbs);
                int n = constraints.get(U32, pos);
                pos += 4;
                for (int t = 0; t < n; t++) {
                    int wire = constraints.get(U32, pos);
                    SegmentLimbs.read(constraints, pos + 4, limbs, coefficient, 0);
                    fr.toMontgomery(coefficient, 0, coefficient, 0);
                    fr.mul(coefficient, 0, wm, wire * limbs, term, 0);
                    fr.add(abc, k * limbs, term, 0, abc, k * limbs);
                    pos += 4 + n8;
                }
            }
            fr.mul(abc, 0, abc, limbs, term, 0);
            return fr.equal(term, 0, abc, 2 * limbs);
        }

        void skip() {
            for (int k = 0; k < 3; k++) {
                int n = constraints.get(U32, pos);
                pos += 4 + (long) n * (4 + n8);
            }
        }
    }
}
