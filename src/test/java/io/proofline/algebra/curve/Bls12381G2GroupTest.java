package io.proofline.algebra.curve;

import io.proofline.algebra.bls12381.Bls12381Curves;

class Bls12381G2GroupTest extends GroupContract {
    @Override
    CurveGroup group() {
        return Bls12381Curves.G2;
    }
}
