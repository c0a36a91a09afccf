package io.proofline.lab.gpu;

import io.proofline.gpu.GpuProverBackend;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.PreparedVerifyingKey;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * One key and witness proved on the GPU backend, timed by the host clock: prove start's first call (which uploads the
 * key unless it is already resident), then {@code warmRuns} warm calls; prove finish (ΣB2 on CPU threads, the
 * assembly) {@code finishRuns} times, each proof checked with {@link Groth16Verifier}: {@code bench gpu}'s proof rows.
 *
 * @param firstStartMs prove start's first call
 * @param warmStartMs  the warm calls, sorted
 * @param finishMs     prove finish per proof, sorted
 * @param verified     how many of the {@code finishMs.length} proofs verified
 * @param pending      prove start's result (the same every call: prove start has no randomness)
 * @param proof        the last proof
 */
record ProofTiming(double firstStartMs, double[] warmStartMs, double[] finishMs, int verified, PendingProof pending,
                   Proof proof, BigInteger[] publicSignals, VerifyingKey verifyingKey) {

    /**
     * {@code abc} null: a/b/c evaluated on the device; else uploaded from the host (the GPU does not overwrite them, so
     * one synthesis serves every prove start).
     */
    static ProofTiming measure(GpuProverBackend gpu, ProvingKey key, Witness witness, Synthesized abc, int warmRuns,
                               int finishRuns) {
        long s = System.nanoTime();
        PendingProof pending = start(gpu, key, witness, abc);
        double firstMs = millisSince(s);
        double[] warm = new double[warmRuns];
        for (int i = 0; i < warmRuns; i++) {
            s = System.nanoTime();
            start(gpu, key, witness, abc);
            warm[i] = millisSince(s);
        }
        Arrays.sort(warm);
        VerifyingKey vk = VerifyingKey.of(key);
        PreparedVerifyingKey pvk = PreparedVerifyingKey.prepare(vk);
        BigInteger[] publicSignals = witness.publicSignals(key.nPublic());
        double[] finish = new double[Math.max(1, finishRuns)];
        int verified = 0;
        Proof proof = null;
        for (int i = 0; i < finish.length; i++) {
            s = System.nanoTime();
            proof = gpu.proveFinish(pending);
            finish[i] = millisSince(s);
            if (Groth16Verifier.verify(pvk, publicSignals, proof).valid()) {
                verified++;
            }
        }
        Arrays.sort(finish);
        return new ProofTiming(firstMs, warm, finish, verified, pending, proof, publicSignals, vk);
    }

    private static PendingProof start(GpuProverBackend gpu, ProvingKey key, Witness witness, Synthesized abc) {
        return gpu.proveStart(key, witness, abc == null ? AbcSource.DEVICE : AbcSource.host(abc));
    }

    boolean allVerified() {
        return verified == finishMs.length;
    }

    double warmMedianMs() {
        return median(warmStartMs);
    }

    double finishMedianMs() {
        return median(finishMs);
    }

    static double median(double[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
    }

    private static double millisSince(long start) {
        return (System.nanoTime() - start) / 1e6;
    }
}
