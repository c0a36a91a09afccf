package io.proofline.snark.prover;

import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.poly.FieldVector;
import io.proofline.algebra.poly.Radix2Domain;

/**
 * The evaluations {@code h_j} of the quotient that the H points of a snarkjs key expect, computed exactly as snarkjs
 * does (DESIGN §7; the steps follow gnark's {@code computeH}).
 *
 * <p>With {@code A(X), B(X), C(X)} the polynomials of degree &lt; N interpolating {@code a, b, c} on the domain
 * {@code ⟨ω_N⟩}, {@code A·B − C} vanishes on the domain, so it equals {@code h(X)·Z(X)} with {@code Z = X^N − 1}. On the
 * odd coset {@code x_j = ω_{2N}·ω_N^j}, {@code Z(x_j) = ω_{2N}^N − 1 = −2} is a constant, and snarkjs's H points fold
 * {@code 1/Z(x_j)} in. So no division is done here: {@code h_j = A(x_j)·B(x_j) − C(x_j)}.
 *
 * <p>Cost: 6 transforms of size N ({@code 3·N·log₂N} multiplications), {@code 6N} for the coset shifts, {@code 2N} for
 * the product and the conversion to canonical form.
 */
public final class Quotient {

    private Quotient() {
    }

    /**
     * Overwrites {@code abc.a()} with the canonical limbs of {@code h_j}, j &lt; N (the H MSM's scalars) and returns
     * it; {@code abc.b()} and {@code abc.c()} are clobbered.
     */
    public static FieldVector computeH(Synthesized abc) {
        FieldVector a = abc.a();
        PrimeField fr = a.field();
        long n = abc.domainSize();
        Radix2Domain domain = Radix2Domain.of(fr, Long.numberOfTrailingZeros(n));
        if (domain.size() != n) {
            throw new IllegalArgumentException("domain size " + n + " is not a power of two");
        }
        // ω_{2N} = 5^((r−1)/2N): the shift onto the odd coset.
        long[] cosetShift = Radix2Domain.rootOfUnity(fr, 2 * n);
        long[] nInverse = domain.sizeInverse();
        for (FieldVector v : new FieldVector[] {abc.a(), abc.b(), abc.c()}) {
            // 1. coefficients of the interpolant: inverse NTT of size N (its factor N⁻¹ is folded into step 2)
            domain.inverseUnscaled(v);
            // 2. coefficient i times N⁻¹·ω_{2N}^i: P(X) becomes P(ω_{2N}·X)
            v.scaleByPowers(nInverse, cosetShift);
            // 3. forward NTT: evaluations on the odd coset x_j = ω_{2N}·ω_N^j
            domain.forward(v);
        }
        // 4. h_j = a'_j·b'_j − c'_j
        a.mulSub(a, abc.b(), abc.c());
        // 5. MSM scalars are canonical integers, not Montgomery form
        a.toCanonical();
        return a;
    }
}
