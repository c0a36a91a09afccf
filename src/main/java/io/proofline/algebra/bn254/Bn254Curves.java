package io.proofline.algebra.bn254;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.SubgroupCheck;
import io.proofline.algebra.curve.Twist;

import java.math.BigInteger;

/** BN254 (alt_bn128) G1 and G2, as in EIP-196/197 and snarkjs's {@code bn128}. */
public final class Bn254Curves {

    /** The BN parameter x (often u or x₀): q and r are polynomials in it. */
    public static final BigInteger X = new BigInteger("4965661367192848881");

    /** G1 = E(𝔽q): y² = x³ + 3, prime order r (cofactor 1), generator (1, 2). */
    public static final CurveGroup G1 = new CurveGroup("bn254.G1", Bn254.FQ, false, Bn254.FQ.fromLong(3),
            concat(Bn254.FQ.fromLong(1), Bn254.FQ.fromLong(2)), Bn254.FR, new SubgroupCheck.CofactorOne());

    /** ξ = 9 + u, the non-residue of the D-type sextic twist. */
    private static final long[] XI = Twist.fp2(Bn254.FQ, BigInteger.valueOf(9), BigInteger.ONE);

    /**
     * G2 ⊂ E'(𝔽q²): y² = x³ + 3/(9 + u) (D-type twist), generator from EIP-197. Subgroup check ψ(P) == [6x²]P.
     */
    public static final CurveGroup G2 = new CurveGroup("bn254.G2", Bn254.FQ, true, Twist.D.twistedB(Bn254.FQ, 3, XI),
            concat(
                    Twist.fp2(Bn254.FQ,
                            new BigInteger("10857046999023057135944570762232829481370756359578518086990519993285655852781"),
                            new BigInteger("11559732032986387107991004021392285783925812861821192530917403151452391805634")),
                    Twist.fp2(Bn254.FQ,
                            new BigInteger("8495653923123431417604973247489272438418190587263600148770280649306958101930"),
                            new BigInteger("4082367875863433681332203403145435568316851327593401208105741076214120093531"))),
            Bn254.FR,
            new SubgroupCheck.EigenvalueCheck(Twist.D.psi(Bn254.FQ, XI), X.multiply(X).multiply(BigInteger.valueOf(6))));

    private Bn254Curves() {
    }

    static long[] concat(long[] x, long[] y) {
        long[] r = new long[x.length + y.length];
        System.arraycopy(x, 0, r, 0, x.length);
        System.arraycopy(y, 0, r, x.length, y.length);
        return r;
    }
}
