package io.proofline.algebra.bls12381;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.GlvEndomorphism;
import io.proofline.algebra.curve.SubgroupCheck;
import io.proofline.algebra.curve.Twist;

import java.math.BigInteger;

/** BLS12-381 G1 and G2, generators from the IETF pairing-friendly-curves draft / EIP-2537. */
public final class Bls12381Curves {

    /** The BLS parameter x = −0xd201000000010000 (negative). */
    public static final BigInteger X = new BigInteger("-d201000000010000", 16);

    /** G1 ⊂ E(𝔽q): y² = x³ + 4. Subgroup check φ(P) == [−x²]P (Scott 2021/1130). */
    public static final CurveGroup G1 = GlvEndomorphism.subgroupCheck(new CurveGroup("bls12381.G1", Bls12381.FQ, false,
            Bls12381.FQ.fromLong(4),
            concat(fq("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
                    fq("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1")),
            Bls12381.FR, new SubgroupCheck.CofactorOne()), X.multiply(X).negate());

    /** ξ = 1 + u, the non-residue of the M-type sextic twist. */
    private static final long[] XI = Twist.fp2(Bls12381.FQ, BigInteger.ONE, BigInteger.ONE);

    /** G2 ⊂ E'(𝔽q²): y² = x³ + 4(1 + u) (M-type twist). Subgroup check ψ(P) == [x]P (Scott 2021/1130). */
    public static final CurveGroup G2 = new CurveGroup("bls12381.G2", Bls12381.FQ, true,
            Twist.M.twistedB(Bls12381.FQ, 4, XI),
            concat(
                    concat(fq("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
                            fq("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")),
                    concat(fq("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
                            fq("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"))),
            Bls12381.FR, new SubgroupCheck.EigenvalueCheck(Twist.M.psi(Bls12381.FQ, XI), X));

    private Bls12381Curves() {
    }

    private static long[] fq(String hex) {
        return Bls12381.FQ.fromBigInteger(new BigInteger(hex, 16));
    }

    private static long[] concat(long[] x, long[] y) {
        long[] r = new long[x.length + y.length];
        System.arraycopy(x, 0, r, 0, x.length);
        System.arraycopy(y, 0, r, x.length, y.length);
        return r;
    }
}
