package io.proofline.algebra.bn254;

import io.proofline.algebra.pairing.PairingCurve;
import io.proofline.algebra.tower.Tower;

/** BN254's pairing: the tower over ξ = 9 + u and the curve parameter; everything else is derived. */
public final class Bn254Pairing {

    /** 𝔽q¹² = 𝔽q⁶[w]/(w² − v), 𝔽q⁶ = 𝔽q²[v]/(v³ − ξ), ξ = 9 + u. */
    public static final Tower TOWER = new Tower(Bn254.FQ, 9);

    /** E: y² = x³ + 3, x = 4965661367192848881 (D-type twist y² = x³ + 3/ξ). */
    public static final PairingCurve CURVE = PairingCurve.bn("bn254", TOWER, Bn254.FR, Bn254Curves.X, 3);

    private Bn254Pairing() {
    }
}
