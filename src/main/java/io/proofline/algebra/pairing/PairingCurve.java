package io.proofline.algebra.pairing;

import io.proofline.algebra.curve.Twist;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.tower.Tower;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything the optimal ate pairing needs to know about a curve, derived from the curve parameter x, the
 * coefficient b of E: y² = x³ + b and the tower's ξ. The factories check that the given p and r are the family's
 * polynomials in x, so a wrong constant fails at class initialisation rather than as a wrong pairing.
 *
 * <p>Immutable and thread-safe; per-thread work happens in {@link Pairing}.
 */
public final class PairingCurve {

    /** The curve family, which fixes the Miller loop length and the final exponentiation's hard part. */
    public enum Family {
        /** Barreto–Naehrig: loop over 6x + 2, then two lines through Frobenius images of Q. */
        BN,
        /** Barreto–Lynn–Scott, k = 12: loop over x. */
        BLS12
    }

    private final String name;
    private final Family family;
    private final Tower tower;
    private final PrimeField fq;
    private final PrimeField fr;
    private final BigInteger x;
    private final Twist twist;
    private final long[] twistB;
    private final int[] loopDigits;
    private final BigInteger hardExponent;
    private final BigInteger exponentMultiplier;

    private PairingCurve(String name, Family family, Tower tower, PrimeField fr, BigInteger x, Twist twist, long b,
                         BigInteger loopCount, boolean naf) {
        this.name = name;
        this.family = family;
        this.tower = tower;
        this.fq = tower.base();
        this.fr = fr;
        if (x.abs().bitLength() > 64) {
            throw new IllegalArgumentException(name + ": |x| must fit 64 bits");
        }
        this.x = x;
        this.twist = twist;
        this.twistB = twist.twistedB(fq, b, tower.xi());
        this.loopDigits = naf ? nonAdjacentForm(loopCount) : binary(loopCount);
        BigInteger p = fq.modulus();
        BigInteger cyclotomic = p.pow(4).subtract(p.pow(2)).add(BigInteger.ONE);
        BigInteger[] qr = cyclotomic.divideAndRemainder(fr.modulus());
        if (qr[1].signum() != 0) {
            throw new IllegalArgumentException(name + ": r does not divide p⁴ − p² + 1 (embedding degree is not 12)");
        }
        this.hardExponent = qr[0];
        this.exponentMultiplier = family == Family.BN
                ? BigInteger.TWO.multiply(x).multiply(x.pow(2).multiply(BigInteger.valueOf(6)).add(x.multiply(BigInteger.valueOf(3))).add(BigInteger.ONE))
                : BigInteger.valueOf(3);
        if (!exponentMultiplier.gcd(fr.modulus()).equals(BigInteger.ONE)) {
            throw new IllegalArgumentException(name + ": exponent multiplier shares a factor with r");
        }
    }

    /**
     * A BN curve: p = 36x⁴ + 36x³ + 24x² + 6x + 1, r = 36x⁴ + 36x³ + 18x² + 6x + 1, D-type twist, Miller loop over
     * the non-adjacent form of 6x + 2 (Vercauteren, "Optimal pairings", 2010).
     */
    public static PairingCurve bn(String name, Tower tower, PrimeField fr, BigInteger x, long b) {
        BigInteger z = x;
        BigInteger z2 = z.pow(2), z3 = z.pow(3), z4 = z.pow(4);
        BigInteger common = z4.multiply(BigInteger.valueOf(36)).add(z3.multiply(BigInteger.valueOf(36)))
                .add(z.multiply(BigInteger.valueOf(6))).add(BigInteger.ONE);
        require(name, "p", tower.base().modulus(), common.add(z2.multiply(BigInteger.valueOf(24))));
        require(name, "r", fr.modulus(), common.add(z2.multiply(BigInteger.valueOf(18))));
        BigInteger loop = z.multiply(BigInteger.valueOf(6)).add(BigInteger.TWO);
        if (loop.signum() <= 0) {
            throw new IllegalArgumentException(name + ": only 6x + 2 > 0 is supported");
        }
        return new PairingCurve(name, Family.BN, tower, fr, x, Twist.D, b, loop, true);
    }

    /**
     * A BLS12 curve: r = x⁴ − x² + 1, p = (x − 1)²·r/3 + x, M-type twist, Miller loop over |x| in binary (x has few
     * set bits), conjugated at the end when x &lt; 0.
     */
    public static PairingCurve bls12(String name, Tower tower, PrimeField fr, BigInteger x, long b) {
        BigInteger z = x;
        BigInteger r = z.pow(4).subtract(z.pow(2)).add(BigInteger.ONE);
        require(name, "r", fr.modulus(), r);
        require(name, "p", tower.base().modulus(), z.subtract(BigInteger.ONE).pow(2).multiply(r).divide(BigInteger.valueOf(3)).add(z));
        return new PairingCurve(name, Family.BLS12, tower, fr, x, Twist.M, b, z.abs(), false);
    }

    private static void require(String name, String what, BigInteger actual, BigInteger expected) {
        if (!actual.equals(expected)) {
            throw new IllegalArgumentException(name + ": " + what + " is not the family polynomial in x");
        }
    }

    /** Signed digits in {−1, 0, 1}, most significant first, no two adjacent nonzero. */
    static int[] nonAdjacentForm(BigInteger k) {
        List<Integer> lsbFirst = new ArrayList<>();
        BigInteger four = BigInteger.valueOf(4);
        while (k.signum() > 0) {
            int digit = 0;
            if (k.testBit(0)) {
                digit = k.mod(four).intValue() == 1 ? 1 : -1;
                k = k.subtract(BigInteger.valueOf(digit));
            }
            lsbFirst.add(digit);
            k = k.shiftRight(1);
        }
        return msbFirst(lsbFirst);
    }

    static int[] binary(BigInteger k) {
        List<Integer> lsbFirst = new ArrayList<>();
        for (int i = 0; i < k.bitLength(); i++) {
            lsbFirst.add(k.testBit(i) ? 1 : 0);
        }
        return msbFirst(lsbFirst);
    }

    private static int[] msbFirst(List<Integer> lsbFirst) {
        int[] r = new int[lsbFirst.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = lsbFirst.get(r.length - 1 - i);
        }
        return r;
    }

    public String name() {
        return name;
    }

    public Family family() {
        return family;
    }

    public Tower tower() {
        return tower;
    }

    public PrimeField fq() {
        return fq;
    }

    public PrimeField fr() {
        return fr;
    }

    /** The curve parameter x (signed). */
    public BigInteger x() {
        return x;
    }

    /** |x| as an unsigned 64-bit value (the exponent of the final exponentiation's exponentiations by x). */
    public long absX() {
        return x.abs().longValue();
    }

    public boolean xIsNegative() {
        return x.signum() < 0;
    }

    public Twist twist() {
        return twist;
    }

    /** A copy of b' of the twist E': y² = x³ + b' over 𝔽p². */
    public long[] twistB() {
        return twistB.clone();
    }

    /** Miller loop digits, most significant (always 1) first. */
    public int[] loopDigits() {
        return loopDigits.clone();
    }

    /** Whether the Miller loop value is conjugated at the end (BLS12 with x &lt; 0: f_{|x|} → f_x up to 𝔽p⁶). */
    public boolean conjugatesLoop() {
        return family == Family.BLS12 && x.signum() < 0;
    }

    /** (p⁴ − p² + 1)/r, the hard part of the final exponent (p¹² − 1)/r = (p⁶ − 1)(p² + 1)·hard. */
    public BigInteger hardExponent() {
        return hardExponent;
    }

    /**
     * c with gcd(c, r) = 1 such that {@link Pairing} computes e(P, Q)^c, e the textbook reduced optimal ate pairing
     * f^((p¹² − 1)/r). c is whatever the family's fast final-exponentiation chain yields, and equals what ffjavascript
     * (snarkjs) computes, so 𝔽p¹² values such as {@code vk_alphabeta_12} agree: BN: 2x(6x² + 3x + 1)
     * (Fuentes-Castañeda, Knapp, Rodríguez-Henríquez, SAC 2011); BLS12: 3 (Hayashida, Hayasaka, Teruya 2020).
     * A power of a non-degenerate bilinear pairing with exponent coprime to r is again one.
     */
    public BigInteger exponentMultiplier() {
        return exponentMultiplier;
    }

    @Override
    public String toString() {
        return name;
    }
}
