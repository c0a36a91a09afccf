package io.proofline.algebra.curve;

import io.proofline.algebra.bn254.Bn254Curves;

class Bn254G1GroupTest extends GroupContract {
    @Override
    CurveGroup group() {
        return Bn254Curves.G1;
    }

    @Override
    boolean hasCofactor() {
        return false;
    }
}
