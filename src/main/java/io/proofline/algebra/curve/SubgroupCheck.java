package io.proofline.algebra.curve;

import java.math.BigInteger;

/** How to decide whether a point on the curve lies in the prime-order subgroup. */
public sealed interface SubgroupCheck {

    /** The curve group has prime order (cofactor 1, BN254 G1): every point on the curve is in the subgroup. */
    record CofactorOne() implements SubgroupCheck {
    }

    /**
     * P ∈ G ⇔ endo(P) = [λ]P, for an endomorphism that acts on the subgroup as multiplication by its eigenvalue λ
     * and (as proven in the cited papers) on no other point of the curve that way:
     * <ul>
     *   <li>BLS12-381 G1: φ(P) = [−x²]P (Scott, "A note on group membership tests for G1, G2 and GT on BLS
     *       pairing-friendly curves", ePrint 2021/1130, §6; Bowe, ePrint 2019/814, gave the first fast test);
     *   <li>BLS12-381 G2: ψ(P) = [x]P (Scott 2021/1130, §4);
     *   <li>BN254 G2: ψ(P) = [6x²]P (El Housni, Guillevic, Piellard, ePrint 2022/352, §5: [p]P = [t − 1]P on G2 with
     *       t − 1 = 6x²).
     * </ul>
     * Cost: one multiplication by |λ| (64 or 128 bits, sparse NAF) instead of the 255-bit [r]P.
     */
    record EigenvalueCheck(Endomorphism endomorphism, BigInteger eigenvalue) implements SubgroupCheck {
    }
}
