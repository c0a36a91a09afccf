package io.proofline.algebra.bls12381;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;

/** BLS12-381 (snarkjs's {@code bls12381}): the fields. Every derived constant comes from the moduli. */
public final class Bls12381 {

    /** Base field 𝔽q (381 bits, 6 limbs): q = (x − 1)²(x⁴ − x² + 1)/3 + x with x = −0xd201000000010000. */
    public static final PrimeField FQ = new PrimeField("bls12381.Fq", new BigInteger(
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16));

    /** Scalar field 𝔽r (255 bits, 4 limbs): r = x⁴ − x² + 1. */
    public static final PrimeField FR = new PrimeField("bls12381.Fr", new BigInteger(
            "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16));

    private Bls12381() {
    }
}
