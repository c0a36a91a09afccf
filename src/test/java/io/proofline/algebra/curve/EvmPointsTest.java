package io.proofline.algebra.curve;

import io.proofline.algebra.EthPrecompileVectors;
import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Ethereum precompile encodings ({@link EvmPoints}, a test helper for the go-ethereum vectors). */
class EvmPointsTest {

    static Stream<CurveGroup> groups() {
        return Stream.of(Bn254Curves.G1, Bn254Curves.G2, Bls12381Curves.G1, Bls12381Curves.G2);
    }

    @ParameterizedTest
    @MethodSource("groups")
    void evmEncodingRoundTrips(CurveGroup g) {
        long seed = new SplittableRandom().nextLong();
        long[] p = TestPoints.randomSubgroupPoint(g.newOps(), new SplittableRandom(seed));
        EvmPoints enc = g.baseField().limbs() == 4 ? EvmPoints.EIP_196 : EvmPoints.EIP_2537;
        assertArrayEquals(p, enc.decode(g, enc.encode(g, p), 0, true), "seed=" + seed);
    }

    /** EIP-197 writes G2 imaginary part first: the pairing vectors' G2 points must decode onto the curve, in G2. */
    @Test
    void eip197G2PointsFromPairingVectorsDecode() {
        int checked = 0;
        for (Map<String, Object> v : EthPrecompileVectors.load("bn256Pairing.json")) {
            byte[] in = HexFormat.of().parseHex((String) v.get("Input"));
            for (int off = 0; off + 192 <= in.length; off += 192) {
                long[] g1 = EvmPoints.EIP_196.decode(Bn254Curves.G1, in, off, true);
                long[] g2 = EvmPoints.EIP_196.decode(Bn254Curves.G2, in, off + 64, true);
                assertTrue(Bn254Curves.G2.newOps().isOnCurve(g2, 0));
                byte[] again = EvmPoints.EIP_196.encode(Bn254Curves.G2, g2);
                assertArrayEquals(java.util.Arrays.copyOfRange(in, off + 64, off + 192), again);
                assertEquals(64, EvmPoints.EIP_196.encode(Bn254Curves.G1, g1).length);
                checked++;
            }
        }
        assertTrue(checked > 10);
    }
}
