package io.proofline.algebra.curve;

import io.proofline.algebra.field.FieldPowers;
import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;

/**
 * φ(x, y) = (β·x, y) on a j-invariant-0 curve over 𝔽p, β a primitive cube root of unity. Of the two roots β and β²,
 * one makes φ act on G1 as [λ] and the other as [λ²]; {@link #subgroupCheck} picks the one matching λ by testing
 * the generator, instead of relying on a hand-copied constant.
 */
public final class GlvEndomorphism {

    private GlvEndomorphism() {
    }

    /** The group with the check φ(P) == [λ]P, β chosen so that it holds on the generator. */
    public static CurveGroup subgroupCheck(CurveGroup g, BigInteger lambda) {
        PrimeField fp = g.baseField();
        BigInteger exponent = fp.modulus().subtract(BigInteger.ONE).divide(BigInteger.valueOf(3));
        long[] beta = null;
        for (int base = 2; beta == null; base++) {
            long[] c = FieldPowers.pow(fp, fp.fromLong(base), exponent);
            if (!fp.isOne(c, 0)) {
                beta = c;
            }
        }
        for (long[] candidate : new long[][] {beta, fp.mul(beta, beta)}) {
            CurveGroup withCheck = g.withSubgroupCheck(new SubgroupCheck.EigenvalueCheck(
                    new Endomorphism(candidate, fp.one(), false), lambda));
            if (withCheck.newOps().isInSubgroup(g.generator(), 0)) {
                return withCheck;
            }
        }
        throw new IllegalStateException(g.name() + ": no cube root of unity acts as [" + lambda + "] on the generator");
    }
}
