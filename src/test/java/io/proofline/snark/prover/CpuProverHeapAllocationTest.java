package io.proofline.snark.prover;

import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.Groth16Verifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CPU proof leaves little garbage on the heap: large data lives off the heap (key, witness, a/b/c, twiddle tables)
 * and the MSM's bucket sets and the NTT's working arrays are kept per thread, not made per task. Guards against a
 * large per-proof heap allocation coming back: the heap bytes allocated during one warm proof of a 2^16 BN254 circuit
 * by the threads that run it (this one, the MSM pool's and the field-vector pool's; not the other threads of the test
 * JVM, such as other tests' services) stay under {@link #BYTES_PER_DOMAIN_ELEMENT} per domain element (generous: a
 * bucket set or NTT scratch made per task, as before, allocated several times that).
 */
@Tag("slow")
class CpuProverHeapAllocationTest {

    private static final int LOG = 16;
    /** The bound per domain element; see docs/BENCHMARKS.md ("Heap allocated per proof") for the measured figures. */
    static final long BYTES_PER_DOMAIN_ELEMENT = 512;
    /** Proofs run while the JIT compiles the vector code (which allocates until C2 has it); the least is kept. */
    private static final int PROOFS = 5;

    @Test
    void aWarmProofAllocatesLittleOnTheHeap() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Groth16Prover prover = new Groth16Prover(new CpuProverBackend());
        try (DevSetup.Result dev = DevSetup.generate(SnarkCurves.BN128, 30_000, 1, 11, 1 << LOG)) {
            VerifyingKey vk = VerifyingKey.of(dev.key());
            long least = Long.MAX_VALUE;
            for (int i = 0; i < PROOFS; i++) {
                Map<Long, Long> before = proofThreadsAllocated(threads);
                Proof proof = prover.prove(dev.key(), dev.witness());
                long allocated = 0;
                for (Map.Entry<Long, Long> e : proofThreadsAllocated(threads).entrySet()) {
                    allocated += e.getValue() - before.getOrDefault(e.getKey(), 0L);
                }
                least = Math.min(least, allocated);
                assertThat(Groth16Verifier.verify(vk, dev.witness().publicSignals(1), proof).valid()).isTrue();
            }
            long bound = BYTES_PER_DOMAIN_ELEMENT << LOG;
            System.out.printf("heap allocated by a warm 2^%d BN254 CPU proof: %.1f MiB (bound %.1f MiB)%n", LOG,
                    least / 1048576.0, bound / 1048576.0);
            assertThat(least).as("heap bytes allocated by the least of %d proofs", PROOFS).isLessThan(bound);
        }
    }

    /** Heap bytes allocated so far by each thread that runs a proof's work: this one and the two compute pools'. */
    private static Map<Long, Long> proofThreadsAllocated(com.sun.management.ThreadMXBean threads) {
        Map<Long, Long> allocated = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t == Thread.currentThread() || t.getName().startsWith("msm-")
                    || t.getName().startsWith("field-vector-")) {
                long bytes = threads.getThreadAllocatedBytes(t.threadId());
                if (bytes >= 0) {
                    allocated.put(t.threadId(), bytes);
                }
            }
        }
        return allocated;
    }
}
