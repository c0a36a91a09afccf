package io.proofline.snark.verifier;

import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.pairing.Pairing;
import io.proofline.algebra.tower.Fq12;
import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.VerifyingKey;

import java.math.BigInteger;

/**
 * Groth16 verification in arkworks' three layers: {@link PreparedVerifyingKey#prepare} (once per key) →
 * {@link #prepareInputs} (once per statement) → {@link #verifyWithPreparedInputs}, the pairing-product check
 *
 * <pre>  e(πA, πB) = e([α]₁, [β]₂) · e(Σ pubᵢ·ICᵢ, [γ]₂) · e(πC, [δ]₂)</pre>
 *
 * evaluated as {@code FinalExp(Miller(πA, πB) · Miller(Σ, −[γ]₂) · Miller(πC, −[δ]₂)) == e(α, β)} (Groth 2016,
 * §3.2; cost: one ℓ-term G1 multi-scalar multiplication, a three-pair Miller loop and one final exponentiation).
 * Proof points are expected to be validated (on the curve, in the subgroup) by whoever decoded them, as our JSON
 * readers do.
 */
public final class Groth16Verifier {

    private Groth16Verifier() {
    }

    /** The whole check for a one-off verification. */
    public static VerificationResult verify(VerifyingKey vk, BigInteger[] publicInputs, Proof proof) {
        return verify(PreparedVerifyingKey.prepare(vk), publicInputs, proof);
    }

    public static VerificationResult verify(PreparedVerifyingKey pvk, BigInteger[] publicInputs, Proof proof) {
        VerifyingKey vk = pvk.vk();
        if (proof.curve() != vk.curve()) {
            return VerificationResult.invalid("the proof is over " + proof.curve() + " but the key over " + vk.curve());
        }
        if (publicInputs.length != vk.nPublic()) {
            return VerificationResult.invalid(publicInputs.length + " public signals given, the key expects "
                    + vk.nPublic());
        }
        BigInteger r = vk.curve().fr().modulus();
        for (int i = 0; i < publicInputs.length; i++) {
            if (publicInputs[i].signum() < 0 || publicInputs[i].compareTo(r) >= 0) {
                return VerificationResult.invalid("public signal " + i + " is not a field element (≥ r)");
            }
        }
        PreparedInputs inputs = prepareInputs(pvk, publicInputs);
        return verifyWithPreparedInputs(pvk, proof, inputs)
                ? VerificationResult.VALID
                : VerificationResult.invalid("the pairing check fails: the proof is not valid for these public signals");
    }

    /**
     * {@code IC₀ + Σ pubᵢ·ICᵢ}. The inputs must be below r (their count equal to nPublic).
     *
     * @throws IllegalArgumentException for a wrong count or an input outside [0, r)
     */
    public static PreparedInputs prepareInputs(PreparedVerifyingKey pvk, BigInteger[] publicInputs) {
        VerifyingKey vk = pvk.vk();
        SnarkCurve curve = vk.curve();
        if (publicInputs.length != vk.nPublic()) {
            throw new IllegalArgumentException(publicInputs.length + " public inputs, expected " + vk.nPublic());
        }
        CurveOps g1 = curve.g1().newOps();
        int aw = curve.g1().affineWidth();
        int jw = 3 * aw / 2;
        long[] ic = vk.ic();
        long[] acc = new long[jw];
        long[] term = new long[jw];
        g1.affineToJacobian(ic, 0, acc, 0);
        for (int i = 0; i < publicInputs.length; i++) {
            BigInteger x = publicInputs[i];
            if (x.signum() < 0 || x.compareTo(curve.fr().modulus()) >= 0) {
                throw new IllegalArgumentException("public input " + i + " is not below r");
            }
            g1.scalarMul(ic, (i + 1) * aw, x, term, 0);
            g1.addJacobian(acc, 0, term, 0, acc, 0);
        }
        long[] point = new long[aw];
        g1.jacobianToAffine(acc, 0, point, 0);
        return new PreparedInputs(point);
    }

    /** The pairing-product check with the inputs already folded. */
    public static boolean verifyWithPreparedInputs(PreparedVerifyingKey pvk, Proof proof, PreparedInputs inputs) {
        SnarkCurve curve = pvk.vk().curve();
        int g1w = curve.g1().affineWidth();
        int g2w = curve.g2().affineWidth();
        long[] g1s = new long[3 * g1w];
        long[] g2s = new long[3 * g2w];
        System.arraycopy(proof.a(), 0, g1s, 0, g1w);
        System.arraycopy(proof.b(), 0, g2s, 0, g2w);
        System.arraycopy(inputs.point(), 0, g1s, g1w, g1w);
        System.arraycopy(pvk.negGamma2(), 0, g2s, g2w, g2w);
        System.arraycopy(proof.c(), 0, g1s, 2 * g1w, g1w);
        System.arraycopy(pvk.negDelta2(), 0, g2s, 2 * g2w, g2w);
        Pairing pairing = curve.newPairing();
        Fq12 f12 = pairing.target();
        long[] f = new long[f12.width()];
        pairing.product(g1s, 0, g2s, 0, 3, f, 0);
        return f12.equal(f, 0, pvk.alphaBetaShared(), 0);
    }
}
