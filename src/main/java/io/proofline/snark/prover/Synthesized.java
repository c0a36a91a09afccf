package io.proofline.snark.prover;

import io.proofline.algebra.poly.FieldVector;

/**
 * The constraint evaluations of one witness over the domain: {@code a = A·w}, {@code b = B·w}, {@code c = a∘b}, N
 * elements each in Montgomery form (the {@code ABC} buffer class). The memory belongs to whoever allocated it for
 * {@link Synthesis}; the quotient computation overwrites it.
 */
public record Synthesized(FieldVector a, FieldVector b, FieldVector c) {

    /** N, the domain size. */
    public long domainSize() {
        return a.length();
    }

    /** Bytes held by the three vectors. */
    public long byteSize() {
        return a.segment().byteSize() + b.segment().byteSize() + c.segment().byteSize();
    }
}
