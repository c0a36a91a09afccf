package io.proofline.snark.verifier;

import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.pairing.Pairing;
import io.proofline.snark.VerifyingKey;

/**
 * A verifying key prepared for repeated checks (arkworks' {@code PreparedVerifyingKey}): the pairing
 * {@code e([α]₁, [β]₂)} computed once, and {@code −[γ]₂}, {@code −[δ]₂} negated once so that the check is one
 * three-pair Miller loop and one final exponentiation. Immutable; shareable between threads.
 */
public final class PreparedVerifyingKey {

    private final VerifyingKey vk;
    private final long[] alphaBeta;
    private final long[] negGamma2;
    private final long[] negDelta2;

    private PreparedVerifyingKey(VerifyingKey vk, long[] alphaBeta, long[] negGamma2, long[] negDelta2) {
        this.vk = vk;
        this.alphaBeta = alphaBeta;
        this.negGamma2 = negGamma2;
        this.negDelta2 = negDelta2;
    }

    /** Prepares {@code vk}: one pairing and two G2 negations. */
    public static PreparedVerifyingKey prepare(VerifyingKey vk) {
        Pairing pairing = vk.curve().newPairing();
        long[] alphaBeta = pairing.pair(vk.alpha1(), 0, vk.beta2(), 0);
        CurveOps g2 = vk.curve().g2().newOps();
        long[] negGamma2 = new long[vk.gamma2().length];
        long[] negDelta2 = new long[vk.delta2().length];
        g2.negateAffine(vk.gamma2(), 0, negGamma2, 0);
        g2.negateAffine(vk.delta2(), 0, negDelta2, 0);
        return new PreparedVerifyingKey(vk, alphaBeta, negGamma2, negDelta2);
    }

    public VerifyingKey vk() {
        return vk;
    }

    /** e([α]₁, [β]₂) ∈ 𝔽q¹², Montgomery limbs (a copy): snarkjs's {@code vk_alphabeta_12}. */
    public long[] alphaBeta() {
        return alphaBeta.clone();
    }

    long[] alphaBetaShared() {
        return alphaBeta;
    }

    long[] negGamma2() {
        return negGamma2;
    }

    long[] negDelta2() {
        return negDelta2;
    }
}
