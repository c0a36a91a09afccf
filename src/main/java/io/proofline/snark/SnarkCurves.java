package io.proofline.snark;

import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bls12381.Bls12381Pairing;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.bn254.Bn254Pairing;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * The registry of curves the snark layer supports. Files name their curve either by snarkjs's name (JSON) or by
 * their primes (binary headers); both lookups answer {@link Optional#empty()} for anything unknown so the caller can
 * say which file declared what.
 */
public final class SnarkCurves {

    /**
     * BN254, snarkjs's {@code bn128}. snarkjs's target-group values are the reduced pairing to the power
     * 2x(6x² + 3x + 1) (the hard part of the final exponentiation of Fuentes-Castañeda, Knapp and
     * Rodríguez-Henríquez, "Faster hashing to G2", 2011), found by comparing with snarkjs's {@code vk_alphabeta_12}.
     */
    public static final SnarkCurve BN128 = new SnarkCurve("bn128", Bn254Curves.G1, Bn254Curves.G2,
            Bn254Pairing.CURVE, bnGtExponent(Bn254Curves.X));

    /**
     * BLS12-381, snarkjs's {@code bls12381}. snarkjs's target-group values are the reduced pairing cubed (the hard
     * part of Hayashida, Hayasaka and Teruya, ePrint 2020/875, computes the 3rd power), found by comparing with
     * snarkjs's {@code vk_alphabeta_12}.
     */
    public static final SnarkCurve BLS12381 = new SnarkCurve("bls12381", Bls12381Curves.G1,
            Bls12381Curves.G2, Bls12381Pairing.CURVE, BigInteger.valueOf(3));

    private static final List<SnarkCurve> ALL = List.of(BN128, BLS12381);

    private SnarkCurves() {
    }

    /** 2x(6x² + 3x + 1). */
    private static BigInteger bnGtExponent(BigInteger x) {
        BigInteger inner = x.pow(2).multiply(BigInteger.valueOf(6)).add(x.multiply(BigInteger.valueOf(3))).add(BigInteger.ONE);
        return x.shiftLeft(1).multiply(inner);
    }

    public static List<SnarkCurve> all() {
        return ALL;
    }

    /** The curve snarkjs calls {@code name} ({@code bn128}, {@code bls12381}). */
    public static Optional<SnarkCurve> byName(String name) {
        return ALL.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The curve whose base field is 𝔽q and scalar field 𝔽r (a {@code .zkey} header names both). */
    public static Optional<SnarkCurve> byPrimes(BigInteger q, BigInteger r) {
        return ALL.stream()
                .filter(c -> c.fq().modulus().equals(q) && c.fr().modulus().equals(r))
                .findFirst();
    }

    /** The curve whose scalar field is 𝔽r ({@code .wtns} and {@code .r1cs} headers name only r). */
    public static Optional<SnarkCurve> byScalarPrime(BigInteger r) {
        return ALL.stream().filter(c -> c.fr().modulus().equals(r)).findFirst();
    }
}
