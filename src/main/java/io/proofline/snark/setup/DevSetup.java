package io.proofline.snark.setup;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.poly.ParallelRange;
import io.proofline.algebra.poly.Radix2Domain;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.Witness;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * An <b>INSECURE</b> Groth16 setup of a {@link SyntheticCircuit} from secrets it knows (τ, α, β, γ, δ drawn here and
 * then forgotten, but never destroyed properly and never contributed to): a proving key in snarkjs's layout and a
 * satisfying witness, for demos and benchmarks only.
 *
 * <p>Key contents (Groth16 paper notation; {@code uⱼ, vⱼ, wⱼ} the QAP polynomials of variable j, {@code Lᵢ} the
 * Lagrange basis of the domain {@code ⟨ω⟩} of size N, {@code Z = X^N − 1}):
 * <ul>
 * <li>{@code Lᵢ(τ) = (τ^N − 1)/N · ωⁱ/(τ − ωⁱ)} (one batch inversion);
 * <li>{@code uⱼ(τ) = Σᵢ A[i][j]·Lᵢ(τ)}, likewise v from B and w from C; snarkjs's input rows {@code A[n + s][s] = 1}
 *     are included;
 * <li>{@code A[j] = [uⱼ(τ)]₁, B1[j] = [vⱼ(τ)]₁, B2[j] = [vⱼ(τ)]₂}, {@code IC[j] = [(βuⱼ + αvⱼ + wⱼ)/γ]₁} for
 *     {@code j ≤ ℓ}, {@code C[j] = [(βuⱼ + αvⱼ + wⱼ)/δ]₁} for {@code j > ℓ};
 * <li>H: the prover sends {@code h_j = (AB − C)(x_j) = h(x_j)·Z(x_j)} on the odd coset {@code x_j = ω_{2N}·ωʲ}, where
 *     {@code Z(x_j) = (ω_{2N})^N − 1 = −2}. With {@code L'_j} the Lagrange basis of the coset (whose vanishing
 *     polynomial is {@code X^N + 1}), {@code L'_j(τ) = −(τ^N + 1)·x_j / (N·(τ − x_j))}, and h has degree ≤ N − 2, so
 *     {@code h(τ) = Σ h(x_j)·L'_j(τ)}. Hence {@code H[j] = [L'_j(τ)·Z(τ)/(δ·Z(x_j))]₁
 *     = [(τ^{2N} − 1)/(2Nδ) · x_j/(τ − x_j)]₁} gives {@code Σ h_j·H[j] = [h(τ)Z(τ)/δ]₁}.
 * </ul>
 * Points come from {@link FixedBaseTable} (windowed fixed-base multiplication, parallel, batch to affine).
 */
public final class DevSetup {

    /** A generated key and witness; closing frees both. */
    public record Result(ProvingKey key, Witness witness, int nConstraints) implements AutoCloseable {
        @Override
        public void close() {
            key.close();
            witness.close();
        }
    }

    private DevSetup() {
    }

    /** snarkjs's domain size for a circuit: {@code 2^(⌊log₂(nConstraints + nPublic)⌋ + 1)}. */
    public static int domainSize(int nConstraints, int nPublic) {
        int log = 31 - Integer.numberOfLeadingZeros(nConstraints + nPublic);
        return 1 << (log + 1);
    }

    /**
     * Generates a synthetic circuit of {@code nConstraints} constraints and {@code nPublic} (≥ 1) public signals
     * and its INSECURE setup; the circuit shape comes from {@code seed}, the secrets from {@link SecureRandom}.
     */
    public static Result generate(SnarkCurve curve, int nConstraints, int nPublic, long seed) {
        return generate(curve, nConstraints, nPublic, seed, 1);
    }

    /**
     * As {@link #generate(SnarkCurve, int, int, long)}, on a domain of at least {@code minDomainSize} (a power of
     * two): a key whose a/b/c and H dominate its size and proving time, while the witness and the A/B/C sections
     * stay those of {@code nConstraints} (a larger domain than the circuit needs is a valid Groth16 setup; the rows
     * past the circuit's are zero).
     */
    public static Result generate(SnarkCurve curve, int nConstraints, int nPublic, long seed, int minDomainSize) {
        return generate(curve, nConstraints, nPublic, seed, minDomainSize, WitnessDistribution.UNIFORM);
    }

    /** As {@link #generate(SnarkCurve, int, int, long, int)}, with a witness of the given distribution. */
    public static Result generate(SnarkCurve curve, int nConstraints, int nPublic, long seed, int minDomainSize,
                                  WitnessDistribution distribution) {
        if (minDomainSize < 1 || Integer.bitCount(minDomainSize) != 1) {
            throw new IllegalArgumentException("the domain size must be a power of two: " + minDomainSize);
        }
        PrimeField fr = curve.fr();
        int limbs = fr.limbs();
        SyntheticCircuit circuit = SyntheticCircuit.generate(fr, nConstraints, nPublic, seed, distribution);
        int n = Math.max(domainSize(nConstraints, nPublic), minDomainSize);
        int log = Integer.numberOfTrailingZeros(n);
        int m = circuit.nVars;

        SecureRandom rnd = new SecureRandom();
        long[] tau = nonZero(fr, rnd);
        long[] alpha = nonZero(fr, rnd);
        long[] beta = nonZero(fr, rnd);
        long[] gamma = nonZero(fr, rnd);
        long[] delta = nonZero(fr, rnd);

        long[] lagrange = lagrangeAtTau(fr, log, tau);
        long[] u = new long[m * limbs];
        long[] v = new long[m * limbs];
        long[] w = new long[m * limbs];
        accumulate(fr, circuit.aStart, circuit.aVar, circuit.aCoef, nConstraints, lagrange, u);
        accumulate(fr, circuit.bStart, circuit.bVar, circuit.bCoef, nConstraints, lagrange, v);
        for (int i = 0; i < nConstraints; i++) {
            fr.add(w, circuit.cVar[i] * limbs, lagrange, i * limbs, w, circuit.cVar[i] * limbs);
        }
        for (int s = 0; s <= nPublic; s++) {
            fr.add(u, s * limbs, lagrange, (nConstraints + s) * limbs, u, s * limbs);
        }

        long[] gammaInv = new long[limbs];
        long[] deltaInv = new long[limbs];
        fr.inv(gamma, 0, gammaInv, 0);
        fr.inv(delta, 0, deltaInv, 0);
        long[] ic = new long[(nPublic + 1) * limbs];
        long[] c = new long[(m - nPublic - 1) * limbs];
        long[] t = new long[2 * limbs];
        for (int j = 0; j < m; j++) {
            fr.mul(beta, 0, u, j * limbs, t, 0);
            fr.mul(alpha, 0, v, j * limbs, t, limbs);
            fr.add(t, 0, t, limbs, t, 0);
            fr.add(t, 0, w, j * limbs, t, 0);
            if (j <= nPublic) {
                fr.mul(t, 0, gammaInv, 0, ic, j * limbs);
            } else {
                fr.mul(t, 0, deltaInv, 0, c, (j - nPublic - 1) * limbs);
            }
        }
        long[] h = hScalars(fr, log, tau, deltaInv);

        CurveGroup g1 = curve.g1();
        CurveGroup g2 = curve.g2();
        int g1Bytes = curve.g1Bytes();
        int g2Bytes = curve.g2Bytes();
        FixedBaseTable t1 = new FixedBaseTable(g1, g1.generatorCopy(), FixedBaseTable.windowFor(3L * m + n));
        FixedBaseTable t2 = new FixedBaseTable(g2, g2.generatorCopy(), FixedBaseTable.windowFor(m));

        Arena arena = Arena.ofShared();
        try {
            MemorySegment a = arena.allocate((long) m * g1Bytes, 8);
            MemorySegment b1 = arena.allocate((long) m * g1Bytes, 8);
            MemorySegment b2 = arena.allocate((long) m * g2Bytes, 8);
            MemorySegment cs = arena.allocate((long) (m - nPublic - 1) * g1Bytes, 8);
            MemorySegment hs = arena.allocate((long) n * g1Bytes, 8);
            t1.multiplyAll(u, m, a, 0);
            t1.multiplyAll(v, m, b1, 0);
            t2.multiplyAll(v, m, b2, 0);
            t1.multiplyAll(c, m - nPublic - 1, cs, 0);
            t1.multiplyAll(h, n, hs, 0);
            MemorySegment icPoints = MemorySegment.ofArray(new long[(nPublic + 1) * g1.affineWidth()]);
            t1.multiplyAll(ic, nPublic + 1, icPoints, 0);

            ProvingKey key = ProvingKey.builder()
                    .curve(curve)
                    .shape(m, nPublic, n)
                    .alpha1(point(t1, g1, alpha))
                    .beta1(point(t1, g1, beta))
                    .beta2(point(t2, g2, beta))
                    .gamma2(point(t2, g2, gamma))
                    .delta1(point(t1, g1, delta))
                    .delta2(point(t2, g2, delta))
                    .ic(icPoints.toArray(java.lang.foreign.ValueLayout.JAVA_LONG))
                    .coefficients(coefficients(arena, fr, circuit, n))
                    .a(a).b1(b1).b2(b2).c(cs).h(hs)
                    .arena(arena)
                    .build();
            return new Result(key, witness(curve, circuit), nConstraints);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    private static long[] nonZero(PrimeField fr, SecureRandom rnd) {
        long[] x;
        do {
            x = fr.random(rnd);
        } while (fr.isZero(x, 0));
        return x;
    }

    /** Lᵢ(τ) for i &lt; N, flat Montgomery limbs: {@code (τ^N − 1)/N · ωⁱ/(τ − ωⁱ)}. */
    static long[] lagrangeAtTau(PrimeField fr, int log, long[] tau) {
        long n = 1L << log;
        long[] omega = Radix2Domain.of(fr, log).generator();
        long[] factor = new long[fr.limbs()];
        fr.pow(tau, 0, BigInteger.valueOf(n), factor, 0);
        fr.sub(factor, 0, fr.montgomeryOne(), 0, factor, 0);
        fr.mul(factor, 0, Radix2Domain.of(fr, log).sizeInverse(), 0, factor, 0);
        return overPoints(fr, n, fr.montgomeryOne(), omega, tau, factor);
    }

    /** The H scalars {@code (τ^{2N} − 1)/(2Nδ) · x_j/(τ − x_j)}, x_j = ω_{2N}·ωʲ (see the class comment). */
    static long[] hScalars(PrimeField fr, int log, long[] tau, long[] deltaInv) {
        long n = 1L << log;
        long[] omega = Radix2Domain.of(fr, log).generator();
        long[] shift = Radix2Domain.rootOfUnity(fr, 2 * n);
        long[] factor = new long[fr.limbs()];
        fr.pow(tau, 0, BigInteger.valueOf(2 * n), factor, 0);
        fr.sub(factor, 0, fr.montgomeryOne(), 0, factor, 0);
        fr.mul(factor, 0, fr.fromBigInteger(BigInteger.valueOf(2 * n).modInverse(fr.modulus())), 0, factor, 0);
        fr.mul(factor, 0, deltaInv, 0, factor, 0);
        return overPoints(fr, n, shift, omega, tau, factor);
    }

    /** {@code factor · x_j/(τ − x_j)} for {@code x_j = first·stepʲ}, j &lt; n, with one batch inversion. */
    private static long[] overPoints(PrimeField fr, long n, long[] first, long[] step, long[] tau, long[] factor) {
        int limbs = fr.limbs();
        long[] x = new long[Math.toIntExact(n * limbs)];
        long[] d = new long[x.length];
        ParallelRange.forEach(n, 1 << 12, (from, to) -> {
            long[] p = new long[limbs];
            fr.pow(step, 0, BigInteger.valueOf(from), p, 0);
            fr.mul(p, 0, first, 0, p, 0);
            for (long j = from; j < to; j++) {
                int o = (int) j * limbs;
                System.arraycopy(p, 0, x, o, limbs);
                fr.sub(tau, 0, p, 0, d, o);
                fr.mul(p, 0, step, 0, p, 0);
            }
        });
        fr.batchInverse(d, 0, (int) n);
        ParallelRange.forEach(n, 1 << 12, (from, to) -> {
            for (long j = from; j < to; j++) {
                int o = (int) j * limbs;
                fr.mul(d, o, x, o, d, o);
                fr.mul(d, o, factor, 0, d, o);
            }
        });
        return d;
    }

    /** out[var] += coef·L[row] over the CSR rows of one matrix. */
    private static void accumulate(PrimeField fr, int[] start, int[] var, long[] coef, int rows, long[] lagrange,
                                   long[] out) {
        int limbs = fr.limbs();
        long[] t = new long[limbs];
        for (int i = 0; i < rows; i++) {
            for (int k = start[i]; k < start[i + 1]; k++) {
                fr.mul(coef, k * limbs, lagrange, i * limbs, t, 0);
                fr.add(out, var[k] * limbs, t, 0, out, var[k] * limbs);
            }
        }
    }

    private static long[] point(FixedBaseTable table, CurveGroup g, long[] scalar) {
        MemorySegment out = MemorySegment.ofArray(new long[g.affineWidth()]);
        table.multiplyAll(scalar, 1, out, 0);
        return out.toArray(java.lang.foreign.ValueLayout.JAVA_LONG);
    }

    /** Section 4: per constraint its A then its B terms, then snarkjs's input rows A[n + s][s] = 1. */
    private static Coefficients coefficients(Arena arena, PrimeField fr, SyntheticCircuit circuit, int domain) {
        int count = circuit.aTerms() + circuit.bTerms() + circuit.nPublic + 1;
        Coefficients coefs = Coefficients.allocate(arena, fr, count);
        int limbs = fr.limbs();
        int i = 0;
        for (int row = 0; row < circuit.nConstraints; row++) {
            for (int k = circuit.aStart[row]; k < circuit.aStart[row + 1]; k++) {
                coefs.set(i++, Coefficients.A, row, circuit.aVar[k], circuit.aCoef, k * limbs);
            }
            for (int k = circuit.bStart[row]; k < circuit.bStart[row + 1]; k++) {
                coefs.set(i++, Coefficients.B, row, circuit.bVar[k], circuit.bCoef, k * limbs);
            }
        }
        long[] one = fr.montgomeryOne();
        for (int s = 0; s <= circuit.nPublic; s++) {
            coefs.set(i++, Coefficients.A, circuit.nConstraints + s, s, one, 0);
        }
        return coefs;
    }

    private static Witness witness(SnarkCurve curve, SyntheticCircuit circuit) {
        PrimeField fr = curve.fr();
        int limbs = fr.limbs();
        Arena arena = Arena.ofShared();
        MemorySegment values = arena.allocate((long) circuit.nVars * fr.bytes(), 8);
        long[] canonical = new long[limbs];
        for (int j = 0; j < circuit.nVars; j++) {
            fr.fromMontgomery(circuit.witness, j * limbs, canonical, 0);
            io.proofline.snark.SegmentLimbs.write(canonical, 0, limbs, values, (long) j * fr.bytes());
        }
        return new Witness(curve, circuit.nVars, values, arena);
    }
}
