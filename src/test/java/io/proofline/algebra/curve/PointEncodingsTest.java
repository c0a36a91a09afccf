package io.proofline.algebra.curve;

import io.proofline.algebra.EthPrecompileVectors;
import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PointEncodingsTest {

    static Stream<CurveGroup> groups() {
        return Stream.of(Bn254Curves.G1, Bn254Curves.G2, Bls12381Curves.G1, Bls12381Curves.G2);
    }

    @ParameterizedTest
    @MethodSource("groups")
    void zkeyAndJsonRoundTripIncludingInfinity(CurveGroup g) {
        long seed = new SplittableRandom().nextLong();
        CurveOps ops = g.newOps();
        long[] p = TestPoints.randomSubgroupPoint(ops, new SplittableRandom(seed));
        for (long[] q : new long[][] {p, new long[g.affineWidth()]}) {
            assertArrayEquals(q, ZkeyPoints.decode(g, ZkeyPoints.encode(g, q), 0), "seed=" + seed);
            assertArrayEquals(q, SnarkjsJsonPoints.fromJson(g, SnarkjsJsonPoints.toJson(g, q)), "seed=" + seed);
        }
        EvmPoints enc = g.baseField().limbs() == 4 ? EvmPoints.EIP_196 : EvmPoints.EIP_2537;
        assertArrayEquals(p, enc.decode(g, enc.encode(g, p), 0, true));
    }

    @Test
    void snarkjsJsonShapes() {
        assertEquals(List.of("1", "2", "1"), SnarkjsJsonPoints.toJson(Bn254Curves.G1, Bn254Curves.G1.generator()));
        assertEquals(List.of("0", "1", "0"), SnarkjsJsonPoints.toJson(Bn254Curves.G1, new long[8]));
        assertEquals(List.of(List.of("0", "0"), List.of("1", "0"), List.of("0", "0")),
                SnarkjsJsonPoints.toJson(Bn254Curves.G2, new long[16]));
        List<Object> g2 = SnarkjsJsonPoints.toJson(Bn254Curves.G2, Bn254Curves.G2.generator());
        assertEquals(List.of("10857046999023057135944570762232829481370756359578518086990519993285655852781",
                "11559732032986387107991004021392285783925812861821192530917403151452391805634"), g2.get(0));
        assertEquals(List.of("1", "0"), g2.get(2));
        // Jacobian z ≠ 1 is accepted like snarkjs: (x·4, y·8, 2) is the generator
        assertArrayEquals(Bn254Curves.G1.generator(), SnarkjsJsonPoints.fromJson(Bn254Curves.G1, List.of("4", "16", "2")));
        InvalidPointException e = assertThrows(InvalidPointException.class,
                () -> SnarkjsJsonPoints.fromJson(Bn254Curves.G1, List.of("1", "3", "1")));
        assertEquals(InvalidPointException.Reason.NOT_ON_CURVE, e.reason());
        e = assertThrows(InvalidPointException.class, () -> SnarkjsJsonPoints.fromJson(Bn254Curves.G1,
                List.of(Bn254Curves.G1.baseField().modulus().add(BigInteger.ONE).toString(), "2", "1")));
        assertEquals(InvalidPointException.Reason.NOT_REDUCED, e.reason());
        e = assertThrows(InvalidPointException.class, () -> SnarkjsJsonPoints.fromJson(Bn254Curves.G1, List.of("1", "x", "1")));
        assertEquals(InvalidPointException.Reason.MALFORMED, e.reason());
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
