package io.proofline.gpu;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;

/**
 * The curves the fatbin instantiates (native-cuda/curves/*.cu), with their kernel-name prefix and the sizes of
 * their device types: field elements are {@code 8·limbs} bytes (the host's Montgomery limbs, unchanged),
 * G1 affine points {@code x‖y}, XYZZ points {@code X‖Y‖ZZ‖ZZZ}.
 */
public enum GpuCurve {
    BN254("bn254", Bn254.FQ, Bn254.FR),
    BLS12_381("bls12_381", Bls12381.FQ, Bls12381.FR);

    private final String prefix;
    private final PrimeField fq;
    private final PrimeField fr;

    GpuCurve(String prefix, PrimeField fq, PrimeField fr) {
        this.prefix = prefix;
        this.fq = fq;
        this.fr = fr;
    }

    public PrimeField fq() {
        return fq;
    }

    public PrimeField fr() {
        return fr;
    }

    /** The snark curve with these fields (its groups are the CPU's reference for the kernels). */
    public SnarkCurve snarkCurve() {
        return SnarkCurves.byPrimes(fq.modulus(), fr.modulus()).orElseThrow();
    }

    /** The name of this curve's instance of a kernel, e.g. {@code bn254_g1_accumulate}. */
    public String kernel(String name) {
        return prefix + "_" + name;
    }

    /** The bit length of the scalar field's modulus r: MSM scalars (canonical, below r) are below 2^scalarBits. */
    public int scalarBits() {
        return fr.modulus().bitLength();
    }

    public int fqBytes() {
        return fq.bytes();
    }

    public int frBytes() {
        return fr.bytes();
    }

    public int affineBytes() {
        return 2 * fq.bytes();
    }

    public int xyzzBytes() {
        return 4 * fq.bytes();
    }

    @Override
    public String toString() {
        return prefix;
    }
}
