package io.proofline.snark.prover;

import io.proofline.algebra.curve.Msm;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.Proof;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.Groth16Verifier;

import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;

/**
 * The heap bytes all threads allocate per step of a CPU proof of a BN254 dev circuit (synthesis, H, two MSMs alone,
 * then prove start and finish as the backend runs them, and verification), per round; the figures of
 * docs/BENCHMARKS.md ("Heap allocated per CPU proof"). Arguments: log₂ of the domain, constraints, rounds (3).
 * Run: {@code java --add-modules jdk.incubator.vector -Xmx1g -cp target/classes:target/test-classes:<classpath>
 * io.proofline.snark.prover.ProofHeapProbe 16 30000 3}.
 */
public final class ProofHeapProbe {
    private static final com.sun.management.ThreadMXBean T =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static long total() { return T.getTotalThreadAllocatedBytes(); }

    public static void main(String[] a) throws Exception {
        int log = Integer.parseInt(a[0]);
        int constraints = Integer.parseInt(a[1]);
        try (DevSetup.Result dev = DevSetup.generate(SnarkCurves.BN128, constraints, 1, 3, 1 << log)) {
            ProvingKey key = dev.key();
            Witness w = dev.witness();
            CpuProverBackend b = new CpuProverBackend();
            for (int round = 0; round < (a.length > 2 ? Integer.parseInt(a[2]) : 3); round++) {
                System.gc();
                long t0 = total();
                Synthesized abc;
                Arena arena = Arena.ofShared();
                abc = Synthesis.evaluate(key, w, bytes -> arena.allocate(bytes, 8));
                long t1 = total();
                var h = Quotient.computeH(abc);
                long t2 = total();
                var m = w.canonical();
                long[] sa = Msm.compute(key.curve().g1(), key.a(), 0, m, 0, key.nVars());
                long t3 = total();
                long[] sh = Msm.compute(key.curve().g1(), key.h(), 0, h.segment(), 0, key.domainSize());
                long t4 = total();
                PendingProof p = b.proveStart(key, w, AbcSource.host(Synthesis.evaluate(key, w, bytes -> arena.allocate(bytes, 8))));
                long t5 = total();
                Proof proof = b.proveFinish(p);
                long t6 = total();
                boolean ok = Groth16Verifier.verify(VerifyingKey.of(key), w.publicSignals(1), proof).valid();
                long t7 = total();
                arena.close();
                System.out.printf("log %d m %d: synth %d KiB, H %d KiB, msmA %d KiB, msmH %d KiB, proveStart %d KiB, finish %d KiB, verify %d KiB ok=%s%n",
                        log, key.nVars(), (t1 - t0) >> 10, (t2 - t1) >> 10, (t3 - t2) >> 10, (t4 - t3) >> 10,
                        (t5 - t4) >> 10, (t6 - t5) >> 10, (t7 - t6) >> 10, ok);
            }
        }
    }
}
