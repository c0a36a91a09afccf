package io.proofline.snark.setup;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;
import java.util.SplittableRandom;

/**
 * A random rank-1 constraint system with a satisfying witness, for demos and benchmarks. Constraint {@code i} is
 * {@code (Σ aₖ·w_{xₖ}) · (Σ bₖ·w_{yₖ}) = w_{outᵢ}}: A has 1–3 terms and B 1–2 over variables defined earlier (half
 * of them among the 16 most recent, as in real circuits), C is the single new variable {@code outᵢ}. Coefficients mix
 * what circom emits: mostly 1, then small integers, −1 and full-size field elements.
 *
 * <p>Variables: {@code w[0] = 1}; {@code w[1]} the public output (the last constraint's); with more public signals
 * {@code w[2..nPublic]} public inputs; then {@value #FREE_INPUTS} private inputs; then one variable per other constraint. So
 * {@code m = nConstraints + nPublic + FREE_INPUTS}. Sparse rows are CSR arrays; coefficients and the witness are
 * Montgomery limbs, flat.
 *
 * <p>With {@link WitnessDistribution#POREP} nine constraints in ten (chosen at random, never the last) are bit gates
 * over variables known to be 0 or 1 (w[0] and earlier gate outputs, half of them among the 16 most recent): NOT,
 * {@code (w₀ − x)·w₀}, or AND, {@code x·y}. Their outputs are bits again, so most of the witness is 0 or 1.
 */
final class SyntheticCircuit {

    static final int FREE_INPUTS = 4;

    final PrimeField fr;
    final int nConstraints;
    final int nPublic;
    final int nVars;
    final int[] aStart;
    final int[] aVar;
    final long[] aCoef;
    final int[] bStart;
    final int[] bVar;
    final long[] bCoef;
    /** C row i is 1·w[cVar[i]]. */
    final int[] cVar;
    /** Montgomery limbs of w, nVars elements. */
    final long[] witness;

    /** Montgomery limbs of 0..1000, flat. */
    private final long[] small;
    private final long[] minusOne;

    private SyntheticCircuit(PrimeField fr, int nConstraints, int nPublic, WitnessDistribution distribution,
                             SplittableRandom rnd) {
        this.fr = fr;
        this.small = new long[1001 * fr.limbs()];
        for (int k = 0; k <= 1000; k++) {
            System.arraycopy(fr.fromLong(k), 0, small, k * fr.limbs(), fr.limbs());
        }
        this.minusOne = fr.fromBigInteger(fr.modulus().subtract(BigInteger.ONE));
        this.nConstraints = nConstraints;
        this.nPublic = nPublic;
        this.nVars = nConstraints + nPublic + FREE_INPUTS;
        int limbs = fr.limbs();
        this.witness = new long[Math.multiplyExact(nVars, limbs)];
        fr.setOne(witness, 0);
        int firstDefined = nPublic + 1 + FREE_INPUTS;
        for (int v = 2; v < firstDefined; v++) {
            System.arraycopy(fr.random(rnd), 0, witness, v * limbs, limbs);
        }
        // Pre-size for the maximum term counts; the arrays are trimmed logically by aStart/bStart.
        this.aStart = new int[nConstraints + 1];
        this.bStart = new int[nConstraints + 1];
        this.aVar = new int[3 * nConstraints];
        this.bVar = new int[2 * nConstraints];
        this.aCoef = new long[3 * nConstraints * limbs];
        this.bCoef = new long[2 * nConstraints * limbs];
        this.cVar = new int[nConstraints];
        long[] sa = new long[limbs];
        long[] sb = new long[limbs];
        long[] t = new long[limbs];
        int aCount = 0;
        int bCount = 0;
        int defined = firstDefined; // variables [0, defined) have values, except w[1] until the end
        // Variables whose value is 0 or 1, for the bit gates (POREP only): w[0] first.
        int[] bits = new int[nConstraints + 1];
        int bitCount = 1;
        for (int i = 0; i < nConstraints; i++) {
            boolean last = i == nConstraints - 1;
            int out = last ? 1 : defined;
            aStart[i] = aCount;
            bStart[i] = bCount;
            if (distribution == WitnessDistribution.POREP && !last && rnd.nextInt(10) != 0) {
                int x = pickBit(rnd, bits, bitCount);
                if (rnd.nextBoolean()) { // NOT: (w₀ − x)·w₀
                    aCount = term(aVar, aCoef, aCount, 0, small, limbs);
                    aCount = term(aVar, aCoef, aCount, x, minusOne, 0);
                    bCount = term(bVar, bCoef, bCount, 0, small, limbs);
                } else { // AND: x·y
                    aCount = term(aVar, aCoef, aCount, x, small, limbs);
                    bCount = term(bVar, bCoef, bCount, pickBit(rnd, bits, bitCount), small, limbs);
                }
            } else {
                int terms = 1 + rnd.nextInt(3);
                for (int k = 0; k < terms; k++, aCount++) {
                    aVar[aCount] = pickVariable(rnd, defined);
                    randomCoefficient(rnd, aCoef, aCount * limbs);
                }
                terms = 1 + rnd.nextInt(2);
                for (int k = 0; k < terms; k++, bCount++) {
                    bVar[bCount] = pickVariable(rnd, defined);
                    randomCoefficient(rnd, bCoef, bCount * limbs);
                }
            }
            dot(aStart[i], aCount, aVar, aCoef, sa, t);
            dot(bStart[i], bCount, bVar, bCoef, sb, t);
            cVar[i] = out;
            fr.mul(sa, 0, sb, 0, witness, out * limbs);
            if (!last) {
                if (fr.isZero(witness, out * limbs) || fr.isOne(witness, out * limbs)) {
                    bits[bitCount++] = out;
                }
                defined++;
            }
        }
        aStart[nConstraints] = aCount;
        bStart[nConstraints] = bCount;
    }

    /** {@code nConstraints ≥ 1} random constraints over {@code fr} with {@code nPublic ≥ 1} public signals. */
    static SyntheticCircuit generate(PrimeField fr, int nConstraints, int nPublic, long seed,
                                     WitnessDistribution distribution) {
        if (nConstraints < 1 || nPublic < 1) {
            throw new IllegalArgumentException("need ≥ 1 constraint and ≥ 1 public signal");
        }
        return new SyntheticCircuit(fr, nConstraints, nPublic, distribution, new SplittableRandom(seed));
    }

    /** Σ coefficient·w over the terms [from, to) into {@code sum}; {@code t} is scratch. */
    private void dot(int from, int to, int[] vars, long[] coefs, long[] sum, long[] t) {
        int limbs = fr.limbs();
        fr.setZero(sum, 0);
        for (int k = from; k < to; k++) {
            fr.mul(coefs, k * limbs, witness, vars[k] * limbs, t, 0);
            fr.add(sum, 0, t, 0, sum, 0);
        }
    }

    /** Writes the term coefficient·w[variable] at {@code index} (the coefficient's limbs at {@code coefOff}). */
    private int term(int[] vars, long[] coefs, int index, int variable, long[] coef, int coefOff) {
        vars[index] = variable;
        System.arraycopy(coef, coefOff, coefs, index * fr.limbs(), fr.limbs());
        return index + 1;
    }

    /** A variable known to be 0 or 1: half the time among the 16 most recent such. */
    private static int pickBit(SplittableRandom rnd, int[] bits, int count) {
        return rnd.nextBoolean() ? bits[Math.max(0, count - 1 - rnd.nextInt(16))] : bits[rnd.nextInt(count)];
    }

    /** A variable with a value: w[0] or an input/defined one, never w[1] (the output, set last). */
    private int pickVariable(SplittableRandom rnd, int defined) {
        int v;
        if (rnd.nextBoolean()) {
            v = Math.max(0, defined - 1 - rnd.nextInt(16));
        } else {
            v = rnd.nextInt(defined);
        }
        return v == 1 ? 0 : v;
    }

    /** 60 % one, 15 % a small integer in [2, 1000], 10 % −1, 15 % a uniform field element. */
    private void randomCoefficient(SplittableRandom rnd, long[] dst, int off) {
        int p = rnd.nextInt(100);
        int limbs = fr.limbs();
        if (p < 60) {
            System.arraycopy(small, limbs, dst, off, limbs);
        } else if (p < 75) {
            System.arraycopy(small, (2 + rnd.nextInt(999)) * limbs, dst, off, limbs);
        } else if (p < 85) {
            System.arraycopy(minusOne, 0, dst, off, limbs);
        } else {
            System.arraycopy(fr.random(rnd), 0, dst, off, limbs);
        }
    }

    int aTerms() {
        return aStart[nConstraints];
    }

    int bTerms() {
        return bStart[nConstraints];
    }
}
