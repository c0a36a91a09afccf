package io.proofline.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code aot-training DIR [--constraints N] [--proofs P]}: the workload the build runs once under
 * {@code -XX:AOTCacheOutput} to make the JDK's ahead-of-time cache (JEP 483/514/515) that {@code bin/proofline} and
 * the Docker image start with: a dev circuit of each curve (made in DIR/CURVE-N unless already there), P proofs of it
 * through {@code prove} (the code path of a user's one-shot proof) and {@code verify} of the last. The cache then
 * holds the classes these load, already linked, and the method profiles the JIT gathered, so that a user's first
 * proof reaches compiled code sooner. Its proofs are checked: a training run that proves nothing valid fails.
 *
 * <p>The default size is that of the circuits one-shot users prove (a domain of 2^15 to 2^16): the profiles are of the
 * code paths a proof of that size takes (the MSM's window sizes, batch-affine buckets from 2^10 buckets up), and a
 * cache trained on a much smaller circuit made cold proofs slower than no cache at all (docs/BENCHMARKS.md, "One-shot
 * CLI").
 */
final class AotTrainingCommand implements Cli.Command {

    private static final List<String> CURVES = List.of("bn128", "bls12381");
    static final int DEFAULT_CONSTRAINTS = 32768;
    static final int DEFAULT_PROOFS = 3;

    @Override
    public String usage() {
        return "aot-training DIR [--constraints N (" + DEFAULT_CONSTRAINTS + ")] [--proofs P (" + DEFAULT_PROOFS
                + ")]   (the build's AOT cache workload; INSECURE dev circuits)";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> opts = Options.parse(args, "--constraints", "--proofs");
        if (Options.positionalCount(opts) != 1) {
            throw new UsageException("expected the training folder");
        }
        int constraints = Options.intValue(opts, "--constraints", DEFAULT_CONSTRAINTS);
        int proofs = Options.intValue(opts, "--proofs", DEFAULT_PROOFS);
        if (constraints < 1 || proofs < 1) {
            throw new UsageException("--constraints and --proofs must be positive");
        }
        Path dir = Path.of(opts.get("0"));
        for (String curve : CURVES) {
            Path circuit = dir.resolve(curve + "-" + constraints);
            if (!Files.isRegularFile(circuit.resolve("circuit.zkey"))) {
                step("dev-circuit", "--curve", curve, "--constraints", Integer.toString(constraints), "--out",
                        circuit.toString(), "--seed", "1");
            }
            String zkey = circuit.resolve("circuit.zkey").toString();
            String proof = circuit.resolve("proof.json").toString();
            String pub = circuit.resolve("public.json").toString();
            String wtns = circuit.resolve("witness.wtns").toString();
            // The first as a user types it (auto: the device probe's classes are loaded too), the rest on the CPU
            // whatever the build machine has, so that the CPU prover's profiles are in the cache.
            step("prove", zkey, wtns, proof, pub);
            for (int i = 1; i < proofs; i++) {
                step("prove", zkey, wtns, proof, pub, "--backend", "cpu");
            }
            step("verify", circuit.resolve("verification_key.json").toString(), pub, proof);
        }
        out.println("aot-training: " + proofs + " proof(s) of each of " + CURVES + " at " + constraints
                + " constraints, verified");
        return 0;
    }

    /** Runs one CLI command as a user would; its output is dropped unless it fails. */
    private static void step(String... args) {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(captured, true, StandardCharsets.UTF_8);
        int rc = Cli.run(args, sink, sink);
        if (rc != 0) {
            throw new IllegalStateException(String.join(" ", args) + " exited " + rc + ": "
                    + captured.toString(StandardCharsets.UTF_8).strip());
        }
    }
}
