package io.proofline.algebra.bn254;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;

/** BN254 (alt_bn128, snarkjs's {@code bn128}): the fields. Every derived constant comes from the moduli. */
public final class Bn254 {

    /** Base field 𝔽q, q = 36x⁴ + 36x³ + 24x² + 6x + 1 with x = 4965661367192848881. */
    public static final PrimeField FQ = new PrimeField("bn254.Fq",
            new BigInteger("21888242871839275222246405745257275088696311157297823662689037894645226208583"));

    /** Scalar field 𝔽r, r = 36x⁴ + 36x³ + 18x² + 6x + 1: the group order and snarkjs's witness field. */
    public static final PrimeField FR = new PrimeField("bn254.Fr",
            new BigInteger("21888242871839275222246405745257275088548364400416034343698204186575808495617"));

    private Bn254() {
    }
}
