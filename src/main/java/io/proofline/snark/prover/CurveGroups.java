package io.proofline.snark.prover;

import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.curve.CurveGroup;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;

import java.util.Map;

/** The G1 and G2 groups of each supported {@link SnarkCurve}: a registry, so new curves add a line, not a branch. */
public final class CurveGroups {

    private record Pair(CurveGroup g1, CurveGroup g2) {
    }

    private static final Map<SnarkCurve, Pair> GROUPS = Map.of(
            SnarkCurves.BN128, new Pair(Bn254Curves.G1, Bn254Curves.G2),
            SnarkCurves.BLS12381, new Pair(Bls12381Curves.G1, Bls12381Curves.G2));

    private CurveGroups() {
    }

    public static CurveGroup g1(SnarkCurve curve) {
        return pair(curve).g1();
    }

    public static CurveGroup g2(SnarkCurve curve) {
        return pair(curve).g2();
    }

    private static Pair pair(SnarkCurve curve) {
        Pair p = GROUPS.get(curve);
        if (p == null) {
            throw new IllegalArgumentException("no groups registered for curve " + curve);
        }
        return p;
    }
}
