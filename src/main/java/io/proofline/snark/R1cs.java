package io.proofline.snark;

import io.proofline.algebra.field.PrimeField;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A rank-1 constraint system as circom writes it: constraints {@code (A·w)·(B·w) = C·w} over 𝔽r, each of A, B, C
 * a sparse linear combination of wires. Wire 0 is the constant 1, then {@code nPubOut} public outputs,
 * {@code nPubIn} public inputs, {@code nPrvIn} private inputs and the internal wires.
 *
 * <p>Terms are flat: the linear combination {@code k ∈ {A=0, B=1, C=2}} of constraint {@code i} is terms
 * {@code start[3i+k] .. start[3i+k+1]−1}, wire ids in {@code wires}, coefficients in {@code coefficients} as
 * Montgomery limbs ({@code fr.limbs()} longs each).
 */
public final class R1cs {

    private final SnarkCurve curve;
    private final int nWires;
    private final int nPubOut;
    private final int nPubIn;
    private final int nPrvIn;
    private final long nLabels;
    private final int nConstraints;
    private final int[] start;
    private final int[] wires;
    private final long[] coefficients;

    public R1cs(SnarkCurve curve, int nWires, int nPubOut, int nPubIn, int nPrvIn, long nLabels, int nConstraints,
                int[] start, int[] wires, long[] coefficients) {
        this.curve = Objects.requireNonNull(curve);
        this.nWires = nWires;
        this.nPubOut = nPubOut;
        this.nPubIn = nPubIn;
        this.nPrvIn = nPrvIn;
        this.nLabels = nLabels;
        this.nConstraints = nConstraints;
        this.start = start;
        this.wires = wires;
        this.coefficients = coefficients;
        if (start.length != 3 * nConstraints + 1 || start[3 * nConstraints] != wires.length
                || coefficients.length != wires.length * curve.fr().limbs()) {
            throw new IllegalArgumentException("inconsistent term arrays");
        }
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

    /** Number of terms of linear combination {@code k} (0 = A, 1 = B, 2 = C) of constraint {@code i}. */
    public int terms(int i, int k) {
        return start[3 * i + k + 1] - start[3 * i + k];
    }

    /** Wire of term {@code t} of combination {@code k} of constraint {@code i}. */
    public int wire(int i, int k, int t) {
        return wires[start[3 * i + k] + t];
    }

    /** Coefficient (Montgomery limbs) of term {@code t} of combination {@code k} of constraint {@code i}. */
    public void coefficient(int i, int k, int t, long[] dst, int off) {
        int limbs = curve.fr().limbs();
        System.arraycopy(coefficients, (start[3 * i + k] + t) * limbs, dst, off, limbs);
    }

    /**
     * The first constraint that {@code w} does not satisfy, or empty when it satisfies all.
     *
     * @throws IllegalArgumentException when {@code w} is over another curve or has not {@code nWires} values
     */
    public OptionalInt firstUnsatisfied(Witness w) {
        requireShape(w);
        long[] wm = w.montgomeryLimbs();
        long[] abc = new long[3 * curve.fr().limbs()];
        for (int i = 0; i < nConstraints; i++) {
            if (!satisfied(i, wm, abc)) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** A sentence saying how constraint {@code i} evaluates on {@code w} ("constraint 3: A·w = …"). */
    public String describe(int i, Witness w) {
        requireShape(w);
        long[] wm = w.montgomeryLimbs();
        PrimeField fr = curve.fr();
        long[] abc = new long[3 * fr.limbs()];
        boolean ok = satisfied(i, wm, abc);
        return "constraint " + i + (ok ? " holds" : " fails") + ": A·w = " + fr.toDecimal(abc, 0)
                + ", B·w = " + fr.toDecimal(abc, fr.limbs()) + ", C·w = " + fr.toDecimal(abc, 2 * fr.limbs());
    }

    private void requireShape(Witness w) {
        if (w.curve() != curve) {
            throw new IllegalArgumentException("witness is over " + w.curve() + ", constraints over " + curve);
        }
        if (w.size() != nWires) {
            throw new IllegalArgumentException("witness has " + w.size() + " values, the circuit " + nWires + " wires");
        }
    }

    /** Evaluates A·w, B·w, C·w of constraint {@code i} into {@code abc} and checks (A·w)(B·w) = C·w. */
    private boolean satisfied(int i, long[] wm, long[] abc) {
        PrimeField fr = curve.fr();
        int limbs = fr.limbs();
        long[] term = new long[limbs];
        for (int k = 0; k < 3; k++) {
            fr.setZero(abc, k * limbs);
            for (int t = start[3 * i + k]; t < start[3 * i + k + 1]; t++) {
                fr.mul(coefficients, t * limbs, wm, wires[t] * limbs, term, 0);
                fr.add(abc, k * limbs, term, 0, abc, k * limbs);
            }
        }
        fr.mul(abc, 0, abc, limbs, term, 0);
        return fr.equal(term, 0, abc, 2 * limbs);
    }
}
