package io.proofline.algebra.pairing;

import io.proofline.algebra.tower.Fq12;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Algebraic properties of the pairing on random points: bilinearity, non-degeneracy, products, final exponentiation. */
class PairingPropertiesTest {

    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void generatorsLieOnTheCurveAndTheTwist(PairingFixtures fx) {
        assertTrue(fx.g1Curve().isOnCurve(fx.g1), fx + " G1");
        assertTrue(fx.g2Curve().isOnCurve(fx.g2), fx + " G2 on the twist with the derived b'");
        BigInteger r = fx.curve.fr().modulus();
        assertTrue(fx.g1Curve().isInfinity(fx.g1Curve().mul(fx.g1, r)), fx + " r·G1 = O");
        assertTrue(fx.g2Curve().isInfinity(fx.g2Curve().mul(fx.g2, r)), fx + " r·G2 = O");
    }

    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void isBilinearAndNonDegenerate(PairingFixtures fx) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        Pairing pairing = new Pairing(fx.curve);
        Fq12 gt = pairing.target();
        BigInteger r = fx.curve.fr().modulus();
        long[] base = pairing.pair(fx.g1, 0, fx.g2, 0);
        assertFalse(gt.isOne(base, 0), fx + ": e(G1, G2) ≠ 1");
        long[] toR = new long[gt.width()];
        gt.pow(base, 0, r, toR, 0);
        assertTrue(gt.isOne(toR, 0), fx + ": e(G1, G2)^r = 1");
        for (int i = 0; i < 2; i++) {
            BigInteger a = randomBits(r.bitLength() - 1, rnd).add(BigInteger.ONE);
            BigInteger b = randomBits(r.bitLength() - 1, rnd).add(BigInteger.ONE);
            long[] aP = fx.g1Curve().mul(fx.g1, a);
            long[] bQ = fx.g2Curve().mul(fx.g2, b);
            long[] lhs = pairing.pair(aP, 0, bQ, 0);
            long[] rhs = new long[gt.width()];
            gt.pow(base, 0, a.multiply(b).mod(r), rhs, 0);
            assertArrayEquals(rhs, lhs, fx + ": e(aP, bQ) = e(P, Q)^(ab), seed=" + seed);
        }
    }

    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void multiPairingEqualsProductOfSinglePairings(PairingFixtures fx) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        Pairing pairing = new Pairing(fx.curve);
        Fq12 gt = pairing.target();
        int k = 3, n = fx.curve.fq().limbs();
        long[] g1s = new long[k * 2 * n], g2s = new long[k * 4 * n];
        long[] expected = gt.one();
        for (int i = 0; i < k; i++) {
            long[] p = fx.g1Curve().mul(fx.g1, randomBits(64, rnd));
            long[] q = i == 1 ? new long[4 * n] : fx.g2Curve().mul(fx.g2, randomBits(64, rnd)); // one infinity
            System.arraycopy(p, 0, g1s, i * 2 * n, 2 * n);
            System.arraycopy(q, 0, g2s, i * 4 * n, 4 * n);
            gt.mul(expected, 0, pairing.pair(p, 0, q, 0), 0, expected, 0);
        }
        long[] product = new long[gt.width()];
        pairing.product(g1s, 0, g2s, 0, k, product, 0);
        assertArrayEquals(expected, product, fx + " seed=" + seed);

        // e(P, Q)·e(−P, Q) = 1 and e(P, Q)·e(P, −Q) = 1 through the shared check
        long[] p = fx.g1Curve().mul(fx.g1, randomBits(64, rnd));
        long[] q = fx.g2Curve().mul(fx.g2, randomBits(64, rnd));
        assertTrue(pairing.productIsOne(concat(p, fx.g1Curve().negate(p)), concat(q, q), 2), fx + " seed=" + seed);
        assertTrue(pairing.productIsOne(concat(p, p), concat(q, fx.g2Curve().negate(q)), 2), fx + " seed=" + seed);
        assertFalse(pairing.productIsOne(concat(p, p), concat(q, q), 2), fx + " seed=" + seed);
        assertTrue(pairing.productIsOne(new long[0], new long[0], 0), "empty product");
        assertTrue(gt.isOne(pairing.pair(new long[2 * n], 0, q, 0), 0), "e(O, Q) = 1");
    }

    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void finalExponentiationChainEqualsTheDefiningPower(PairingFixtures fx) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        Pairing pairing = new Pairing(fx.curve);
        Fq12 gt = pairing.target();
        FinalExponentiation fe = pairing.finalExponentiation();
        for (int i = 0; i < 3; i++) {
            long[] f = gt.random(rnd);
            long[] chain = new long[gt.width()], exponent = new long[gt.width()], reference = new long[gt.width()];
            fe.apply(f, 0, chain, 0, FinalExponentiation.Strategy.CHAIN);
            fe.apply(f, 0, exponent, 0, FinalExponentiation.Strategy.EXPONENT);
            BigInteger p = fx.curve.fq().modulus();
            BigInteger c = fx.curve.exponentMultiplier();
            gt.pow(f, 0, p.pow(12).subtract(BigInteger.ONE).divide(fx.curve.fr().modulus()).multiply(c), reference, 0);
            assertArrayEquals(reference, exponent, fx + " f^(c(p¹²−1)/r), seed=" + seed);
            assertArrayEquals(reference, chain, fx + " chain, seed=" + seed);
        }
    }

    /** e(G1, G2) equals what ffjavascript (snarkjs's library) computes, so a vk_alphabeta_12 we write matches snarkjs. */
    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void generatorPairingMatchesFfjavascript(PairingFixtures fx) throws IOException {
        String json = Files.readString(Path.of("src/test/resources/pairing/ffjavascript-gt-generators.json"));
        String key = fx == PairingFixtures.BN254 ? "bn128" : "bls12381";
        Matcher m = Pattern.compile("\"" + key + "\":(\\[[^a-z]*?]]])").matcher(json);
        assertTrue(m.find(), key);
        Matcher numbers = Pattern.compile("\"(\\d+)\"").matcher(m.group(1));
        BigInteger[] expected = new BigInteger[12];
        for (int i = 0; i < 12; i++) {
            assertTrue(numbers.find());
            expected[i] = new BigInteger(numbers.group(1));
        }
        Pairing pairing = new Pairing(fx.curve);
        long[] e = pairing.pair(fx.g1, 0, fx.g2, 0);
        assertArrayEquals(expected, pairing.target().toBigIntegers(e, 0), fx.toString());
    }

    /** A uniform integer of at most {@code bits} bits (BigInteger's constructor wants a java.util.Random). */
    static BigInteger randomBits(int bits, SplittableRandom rnd) {
        byte[] bytes = new byte[(bits + 7) / 8 + 1];
        rnd.nextBytes(bytes);
        bytes[0] = 0;
        return new BigInteger(bytes).shiftRight(8 * (bytes.length - 1) - bits);
    }

    private static long[] concat(long[] a, long[] b) {
        long[] r = new long[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
