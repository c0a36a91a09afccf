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

    /** BN254, snarkjs's {@code bn128}. */
    public static final SnarkCurve BN128 = new SnarkCurve("bn128", Bn254Curves.G1, Bn254Curves.G2,
            () -> Bn254Pairing.CURVE);

    /** BLS12-381, snarkjs's {@code bls12381}. */
    public static final SnarkCurve BLS12381 = new SnarkCurve("bls12381", Bls12381Curves.G1,
            Bls12381Curves.G2, () -> Bls12381Pairing.CURVE);

    private static final List<SnarkCurve> ALL = List.of(BN128, BLS12381);

    private SnarkCurves() {
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
