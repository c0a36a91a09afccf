package io.proofline.snark.format;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Points as snarkjs writes them in {@code proof.json} and {@code verification_key.json} ({@link SnarkjsJson}'s
 * {@code g1}/{@code g2} and their writers): projective triples of decimal strings, infinity as z = 0, and any other z
 * read as Jacobian coordinates like ffjavascript's {@code fromObject}.
 */
class SnarkjsJsonPointsTest {

    private static final String FILE = "points.json";

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void randomPointsAndInfinityRoundTrip(SnarkCurve curve) throws Exception {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        for (CurveGroup g : new CurveGroup[] {curve.g1(), curve.g2()}) {
            long[] p = g.newOps().mulAffine(g.generator(), BigInteger.valueOf(random.nextLong() >>> 1).add(BigInteger.TWO));
            for (long[] q : new long[][] {p, new long[g.affineWidth()]}) {
                assertArrayEquals(q, read(curve, g, write(curve, g, q)), g.name() + " seed=" + seed);
            }
        }
    }

    @Test
    void theShapesSnarkjsWrites() throws Exception {
        SnarkCurve bn = SnarkCurves.BN128;
        assertEquals(json("[\"1\",\"2\",\"1\"]"), SnarkjsJson.g1Node(bn, bn.g1().generator(), 0));
        assertEquals(json("[\"0\",\"1\",\"0\"]"), SnarkjsJson.g1Node(bn, new long[8], 0));
        assertEquals(json("[[\"0\",\"0\"],[\"1\",\"0\"],[\"0\",\"0\"]]"), SnarkjsJson.g2Node(bn, new long[16], 0));
        JsonNode g2 = SnarkjsJson.g2Node(bn, bn.g2().generator(), 0);
        assertEquals(json("[\"10857046999023057135944570762232829481370756359578518086990519993285655852781\","
                + "\"11559732032986387107991004021392285783925812861821192530917403151452391805634\"]"), g2.get(0));
        assertEquals(json("[\"1\",\"0\"]"), g2.get(2));
    }

    @Test
    void jacobianCoordinatesAreReadAsSnarkjsReadsThem() throws Exception {
        // (x·z², y·z³, z) with z = 2 is the generator (1, 2)
        assertArrayEquals(SnarkCurves.BN128.g1().generator(),
                SnarkjsJson.g1(json("[\"4\",\"16\",\"2\"]"), SnarkCurves.BN128, FILE, "p"));
    }

    @Test
    void badPointsAreRefusedSayingWhy() {
        SnarkCurve bn = SnarkCurves.BN128;
        assertRefused(bn, "[\"1\",\"3\",\"1\"]", "p is not on the curve");
        String p = bn.fq().modulus().add(BigInteger.ONE).toString();
        assertRefused(bn, "[\"" + p + "\",\"2\",\"1\"]", "p[0] is not reduced");
        assertRefused(bn, "[\"1\",\"x\",\"1\"]", "p[1] is not a non-negative decimal integer");
        assertRefused(bn, "[\"1\",\"2\"]", "p is not an array of 3");
    }

    private static void assertRefused(SnarkCurve curve, String point, String why) {
        FormatException e = assertThrows(FormatException.class, () -> SnarkjsJson.g1(json(point), curve, FILE, "p"));
        assertTrue(e.getMessage().startsWith(FILE + ": " + why), e.getMessage());
    }

    private static JsonNode write(SnarkCurve curve, CurveGroup g, long[] p) {
        return g == curve.g1() ? SnarkjsJson.g1Node(curve, p, 0) : SnarkjsJson.g2Node(curve, p, 0);
    }

    private static long[] read(SnarkCurve curve, CurveGroup g, JsonNode node) throws FormatException {
        // through the text, as the files carry them
        JsonNode parsed = json(SnarkjsJson.stringify(node));
        return g == curve.g1() ? SnarkjsJson.g1(parsed, curve, FILE, "p") : SnarkjsJson.g2(parsed, curve, FILE, "p");
    }

    private static JsonNode json(String text) {
        try {
            return SnarkjsJson.parse(text, FILE);
        } catch (FormatException e) {
            throw new AssertionError(e);
        }
    }
}
