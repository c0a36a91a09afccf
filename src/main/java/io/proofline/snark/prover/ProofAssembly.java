package io.proofline.snark.prover;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * The last step of a Groth16 proof, shared by every backend: adds the key's fixed points and the zero-knowledge
 * randomizers r, s (Groth 2016, §3.2; snarkjs {@code groth16_prove.js}):
 * <pre>
 *   πA = ΣA + [α]₁ + r·[δ]₁
 *   πB = ΣB2 + [β]₂ + s·[δ]₂
 *   πC = ΣC + ΣH + s·πA + r·(ΣB1 + [β]₁ + s·[δ]₁) − rs·[δ]₁
 * </pre>
 * Cost: five scalar multiplications (one in G2), negligible next to the MSMs.
 */
public final class ProofAssembly {

    private static final SecureRandom RANDOM = new SecureRandom();

    private ProofAssembly() {
    }

    /** Assembles with fresh uniform r, s ∈ 𝔽r from {@link SecureRandom}. */
    public static Proof assemble(PendingProof p, long[] sumB2) {
        PrimeField fr = p.key().curve().fr();
        BigInteger r = fr.toBigInteger(fr.random(RANDOM));
        BigInteger s = fr.toBigInteger(fr.random(RANDOM));
        return assemble(p, sumB2, r, s);
    }

    /** Assembles with the given randomizers (tests; r = s = 0 gives the deterministic part). */
    public static Proof assemble(PendingProof p, long[] sumB2, BigInteger r, BigInteger s) {
        ProvingKey key = p.key();
        CurveGroup g1 = key.curve().g1();
        CurveGroup g2 = key.curve().g2();
        CurveOps o1 = g1.newOps();
        CurveOps o2 = g2.newOps();
        BigInteger order = key.curve().fr().modulus();

        long[] piA = sum(o1, p.sumA(), key.alpha1(), o1.mulAffine(key.delta1(), r));
        long[] piB = sum(o2, sumB2, key.beta2(), o2.mulAffine(key.delta2(), s));
        long[] b1 = sum(o1, p.sumB1(), key.beta1(), o1.mulAffine(key.delta1(), s));
        long[] minusRsDelta = o1.mulAffine(key.delta1(), r.multiply(s).negate().mod(order));
        long[] piC = sum(o1, p.sumC(), p.sumH(), o1.mulAffine(piA, s), o1.mulAffine(b1, r), minusRsDelta);
        return new Proof(key.curve(), piA, piB, piC);
    }

    /** The sum of affine points, as an affine point. */
    private static long[] sum(CurveOps ops, long[]... points) {
        int w = ops.fieldWidth();
        long[] acc = new long[3 * w];
        ops.setInfinityJacobian(acc, 0);
        for (long[] q : points) {
            ops.addAffineToJacobian(acc, 0, q, 0, acc, 0);
        }
        long[] r = new long[2 * w];
        ops.jacobianToAffine(acc, 0, r, 0);
        return r;
    }
}
