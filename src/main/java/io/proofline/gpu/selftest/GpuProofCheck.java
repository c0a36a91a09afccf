package io.proofline.gpu.selftest;

import io.proofline.gpu.GpuProverBackend;
import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.Groth16Verifier;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whole Groth16 proofs on the GPU backend for INSECURE dev circuits ({@link DevSetup}, generated in the run): each
 * proof must verify with {@link Groth16Verifier}, and prove start's four G1 sums must equal the CPU backend's on the
 * same key and witness (prove start has no randomness, so they are exactly comparable). Times prove start on the GPU
 * (first call: key upload included; then the median of warm calls) against the CPU backend, and prove finish (ΣB2 on
 * CPU threads, assembly). Writes proof.json, public.json and verification_key.json of the first case of each curve
 * for snarkjs.
 */
public final class GpuProofCheck {

    /** A dev circuit of 2^logConstraints constraints and 2 public signals (snarkjs's domain: 2^(logConstraints+1)). */
    public record Case(SnarkCurve curve, int logConstraints) {
        /** {@code bn128:16}, {@code bls12381:10}. */
        public static Case parse(String s) {
            String[] parts = s.split(":");
            SnarkCurve curve = SnarkCurves.byName(parts[0])
                    .orElseThrow(() -> new IllegalArgumentException("unknown curve " + parts[0]));
            return new Case(curve, Integer.parseInt(parts[1]));
        }
    }

    private static final int PUBLIC = 2;
    private static final int WARM_RUNS = 3;

    private final PrintStream out;
    private final Path outDir;
    private final long deadlineNanos;
    private final List<String> table = new ArrayList<>();
    private int failures;

    /** @param seconds no case starts after this many seconds from construction */
    public GpuProofCheck(PrintStream out, Path outDir, long seconds) {
        this.out = out;
        this.outDir = outDir;
        this.deadlineNanos = System.nanoTime() + seconds * 1_000_000_000L;
    }

    /** Runs the cases in order; returns the number of failures. */
    public int run(List<Case> cases) {
        Set<String> written = new HashSet<>();
        try (GpuProverBackend gpu = new GpuProverBackend()) {
            out.println("proofs on " + gpu.device());
            for (Case c : cases) {
                if (System.nanoTime() > deadlineNanos) {
                    line(String.format(Locale.ROOT, "%-9s 2^%-3d skipped: out of time", c.curve().name(), c.logConstraints()));
                    continue;
                }
                try {
                    runCase(gpu, c, outDir != null && written.add(c.curve().name()));
                } catch (RuntimeException | IOException e) {
                    failures++;
                    line(String.format(Locale.ROOT, "%-9s 2^%-3d FAIL %s: %s", c.curve().name(), c.logConstraints(),
                            e.getClass().getSimpleName(), e.getMessage()));
                }
            }
        }
        out.println();
        out.println("== Groth16 proofs on the GPU backend ==");
        table.forEach(out::println);
        out.println(failures == 0 ? "all proofs verified" : failures + " proof checks FAILED");
        return failures;
    }

    private void runCase(GpuProverBackend gpu, Case c, boolean write) throws IOException {
        int constraints = 1 << c.logConstraints();
        long t0 = System.nanoTime();
        try (DevSetup.Result dev = DevSetup.generate(c.curve(), constraints, PUBLIC, 42 + c.logConstraints());
             Arena arena = Arena.ofShared()) {
            double setupS = (System.nanoTime() - t0) / 1e9;
            var key = dev.key();
            var witness = dev.witness();
            // The GPU does not overwrite a/b/c, so one synthesis serves its runs; the CPU's needs a fresh one.
            Synthesized abc = Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8));
            long s = System.nanoTime();
            PendingProof pending = gpu.proveStart(key, witness, abc);
            double coldMs = (System.nanoTime() - s) / 1e6;
            double[] warm = new double[WARM_RUNS];
            for (int i = 0; i < WARM_RUNS; i++) {
                s = System.nanoTime();
                gpu.proveStart(key, witness, abc);
                warm[i] = (System.nanoTime() - s) / 1e6;
            }
            java.util.Map<String, Double> stages = gpu.lastStageMillis();
            Arrays.sort(warm);
            s = System.nanoTime();
            Proof proof = gpu.proveFinish(pending);
            double finishMs = (System.nanoTime() - s) / 1e6;
            BigInteger[] publicSignals = witness.publicSignals(key.nPublic());
            VerifyingKey vk = VerifyingKey.of(key);
            boolean valid = Groth16Verifier.verify(vk, publicSignals, proof).valid();

            Synthesized abcCpu = Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8));
            s = System.nanoTime();
            PendingProof cpu = new CpuProverBackend().proveStart(key, witness, abcCpu);
            double cpuMs = (System.nanoTime() - s) / 1e6;
            boolean same = Arrays.equals(cpu.sumA(), pending.sumA()) && Arrays.equals(cpu.sumB1(), pending.sumB1())
                    && Arrays.equals(cpu.sumC(), pending.sumC()) && Arrays.equals(cpu.sumH(), pending.sumH())
                    && (!pending.hasSumB2() || Arrays.equals(pending.sumB2(), io.proofline.algebra.curve.Msm.compute(
                            key.curve().g2(), key.b2(), 0, witness.canonical(), 0, key.nVars())));
            if (!valid || !same) {
                failures++;
            }
            double warmMs = warm[warm.length / 2];
            line(String.format(Locale.ROOT, "%-9s 2^%-3d B2 on %s %8d constraints, domain %8d, %8d vars  %s  sums %s  proveStart gpu "
                            + "%8.1f ms (first, key upload incl. %8.1f)  cpu %9.1f ms  x%5.1f  proveFinish %8.1f ms  "
                            + "setup %.1f s", c.curve().name(), c.logConstraints(), pending.hasSumB2() ? "gpu" : "cpu",
                    constraints, key.domainSize(), key.nVars(),
                    valid ? "VERIFIED" : "INVALID ", same ? "=cpu" : "DIFFER", warmMs, coldMs, cpuMs, cpuMs / warmMs,
                    finishMs, setupS));
            StringBuilder split = new StringBuilder("  prove start steps (last warm run, ms):");
            stages.forEach((k, v) -> split.append(String.format(Locale.ROOT, " %s %.2f", k, v)));
            out.println(split);
            long[] bytes = gpu.deviceBytes();
            out.printf(Locale.ROOT, "  device bytes: resident keys %d MiB, working buffers %d MiB%n", bytes[0] >> 20,
                    bytes[1] >> 20);
            if (write && valid) {
                Path dir = outDir.resolve(c.curve().name());
                Files.createDirectories(dir);
                ProofJson.write(proof, dir.resolve("proof.json"));
                PublicSignalsJson.write(publicSignals, dir.resolve("public.json"));
                VerificationKeyJson.write(vk, dir.resolve("verification_key.json"));
                out.println("  wrote " + dir + "/{proof,public,verification_key}.json");
            }
        }
    }

    private void line(String s) {
        table.add(s);
        out.println("  proof " + s);
        out.flush();
    }
}
