package io.proofline.snark.prover;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.Msm;
import io.proofline.algebra.poly.FieldVector;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

import java.lang.foreign.MemorySegment;

/**
 * The pure-Java backend: quotient by {@link Quotient} (NTTs on the common ForkJoin pool) and Pippenger MSMs by
 * {@link Msm}, reading the key's points where the file is mapped and the witness where it was parsed.
 */
public final class CpuProverBackend implements ProverBackend {

    @Override
    public String name() {
        return "cpu";
    }

    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc) {
        Synthesis.checkShape(key, witness);
        if (!(abc instanceof AbcSource.Host host)) {
            throw new IllegalArgumentException("the cpu backend has no device to evaluate a/b/c on: pass them from the"
                    + " host");
        }
        CurveGroup g1 = key.curve().g1();
        FieldVector h = Quotient.computeH(host.vectorsFor(key));
        MemorySegment w = witness.canonical();
        int m = key.nVars();
        int firstPrivate = key.nPublic() + 1;
        long scalarBytes = key.curve().fr().bytes();
        long[] sumA = Msm.compute(g1, key.a(), 0, w, 0, m);
        long[] sumB1 = Msm.compute(g1, key.b1(), 0, w, 0, m);
        long[] sumC = Msm.compute(g1, key.c(), 0, w, firstPrivate * scalarBytes, m - firstPrivate);
        long[] sumH = Msm.compute(g1, key.h(), 0, h.segment(), 0, key.domainSize());
        return new PendingProof(key, witness, sumA, sumB1, sumC, sumH);
    }

    @Override
    public Proof proveFinish(PendingProof pending) {
        ProvingKey key = pending.key();
        long[] sumB2 = Msm.compute(key.curve().g2(), key.b2(), 0, pending.witness().canonical(), 0,
                key.nVars());
        return ProofAssembly.assemble(pending, sumB2);
    }
}
