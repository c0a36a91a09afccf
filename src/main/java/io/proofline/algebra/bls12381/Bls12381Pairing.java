package io.proofline.algebra.bls12381;

import io.proofline.algebra.pairing.PairingCurve;
import io.proofline.algebra.tower.Tower;

/** BLS12-381's pairing: the tower over ξ = 1 + u and the curve parameter; everything else is derived. */
public final class Bls12381Pairing {

    /** 𝔽q¹² = 𝔽q⁶[w]/(w² − v), 𝔽q⁶ = 𝔽q²[v]/(v³ − ξ), ξ = 1 + u. */
    public static final Tower TOWER = new Tower(Bls12381.FQ, 1);

    /** E: y² = x³ + 4, x = −0xd201000000010000 (M-type twist y² = x³ + 4ξ). */
    public static final PairingCurve CURVE = PairingCurve.bls12("bls12381", TOWER, Bls12381.FR, Bls12381Curves.X, 4);

    private Bls12381Pairing() {
    }
}
