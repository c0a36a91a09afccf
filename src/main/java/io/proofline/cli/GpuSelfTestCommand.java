package io.proofline.cli;

import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuUnavailableException;
import io.proofline.gpu.selftest.GpuProofCheck;
import io.proofline.gpu.selftest.GpuSelfTest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gpu-selftest [--seed N] [--max-log K]}: every GPU kernel against the CPU on fresh random inputs, both curves
 * (timing them is the lab's {@code gpu-bench}). Exit 0 when all checks pass, 1 on any mismatch,
 * 3 with {@code no GPU available: <reason>} when there is no usable GPU. {@code --proofs bn128:10,bls12381:16,...} adds
 * whole Groth16 proofs on the GPU backend for dev circuits of 2^k constraints ({@link GpuProofCheck}), with
 * {@code --proofs-only} alone, {@code --proof-out DIR} for the first proof of each curve, {@code --proof-seconds S}
 * as the time after which no new case starts. {@code --fixtures DIR} (with {@code --fixtures-only} alone) proves every
 * committed circom fixture under DIR ({@code <curve>/<circuit>/circuit.zkey} + {@code witness.wtns}) on the GPU backend
 * and writes each proof's files to {@code --proof-out}{@code /<curve>-<circuit>/} for
 * {@code scripts/lab/verify-gpu-proofs.sh}. The GPU flags ({@link GpuOptions}) configure the kernels and the backend.
 */
final class GpuSelfTestCommand implements Cli.Command {

    @Override
    public String usage() {
        return "gpu-selftest [--seed N] [--max-log K (default 20)]"
                + " [--proofs curve:logConstraints,... [--proofs-only] [--proof-out DIR] [--proof-seconds S]]"
                + " [--fixtures DIR (e.g. src/test/resources/fixtures) [--fixtures-only]] " + GpuOptions.USAGE;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws UsageException, IOException {
        long seed = System.nanoTime();
        int maxLog = 20;
        List<GpuProofCheck.Case> proofs = new ArrayList<>();
        boolean proofsOnly = false;
        Path proofOut = null;
        long proofSeconds = 600;
        Path fixtures = null;
        boolean fixturesOnly = false;
        Map<String, String> gpu = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seed" -> seed = Long.parseLong(value(args, ++i));
                case "--max-log" -> maxLog = Integer.parseInt(value(args, ++i));
                case "--proofs" -> {
                    for (String c : value(args, ++i).split(",")) {
                        try {
                            proofs.add(GpuProofCheck.Case.parse(c));
                        } catch (RuntimeException e) {
                            throw new UsageException("--proofs takes curve:logConstraints,... e.g. bn128:16 (" + c + ")");
                        }
                    }
                }
                case "--proofs-only" -> proofsOnly = true;
                case "--proof-out" -> proofOut = Path.of(value(args, ++i));
                case "--proof-seconds" -> proofSeconds = Long.parseLong(value(args, ++i));
                case "--fixtures" -> fixtures = Path.of(value(args, ++i));
                case "--fixtures-only" -> fixturesOnly = true;
                default -> {
                    if (!GpuOptions.isGpuOption(args[i])) {
                        throw new UsageException("unknown option " + args[i]);
                    }
                    gpu.put(args[i], value(args, ++i));
                }
            }
        }
        if (maxLog < 1 || maxLog > 26) {
            throw new UsageException("--max-log must be in 1..26");
        }
        GpuConfig config = GpuOptions.config(gpu);
        try {
            int failed = 0;
            if (fixturesOnly && fixtures == null) {
                throw new UsageException("--fixtures-only needs --fixtures DIR");
            }
            if (!proofsOnly && !fixturesOnly) {
                failed += new GpuSelfTest(out, new GpuSelfTest.Options(seed, maxLog), config).run();
            }
            if (!proofs.isEmpty() && !fixturesOnly) {
                failed += new GpuProofCheck(out, proofOut, proofSeconds, config).run(proofs);
            }
            if (fixtures != null) {
                failed += new GpuProofCheck(out, proofOut, proofSeconds, config).runFixtures(fixtures);
            }
            return failed == 0 ? 0 : 1;
        } catch (GpuUnavailableException e) {
            out.println(e.getMessage());
            return 3;
        }
    }

    private static String value(String[] args, int i) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
