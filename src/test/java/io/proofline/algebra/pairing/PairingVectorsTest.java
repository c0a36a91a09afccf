package io.proofline.algebra.pairing;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every vector of go-ethereum's bn256Pairing.json (EIP-197) and blsPairing.json (EIP-2537). */
class PairingVectorsTest {

    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void productCheckMatchesEveryPrecompileVector(PairingFixtures fx) {
        List<PairingFixtures.Vector> vectors = PairingFixtures.readVectors(fx.vectorFile());
        assertTrue(vectors.size() > 10, "vectors found: " + vectors.size());
        Pairing pairing = new Pairing(fx.curve);
        int ones = 0;
        for (PairingFixtures.Vector v : vectors) {
            long[][] points = fx.decode(v.input());
            int k = v.input().length / fx.pairBytes();
            boolean expected = v.expected().endsWith("1");
            assertEquals(expected, pairing.productIsOne(points[0], points[1], k), fx + " " + v.name());
            ones += expected ? 1 : 0;
        }
        assertTrue(ones > 0 && ones < vectors.size(), "vectors of both outcomes");
    }
}
