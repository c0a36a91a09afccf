package io.proofline.gpu.selftest;

import io.proofline.algebra.curve.Msm;
import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuProverBackend;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.PreparedVerifyingKey;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Whole Groth16 proofs on the GPU backend for INSECURE dev circuits ({@link DevSetup}, generated in the run): each
 * proof must verify with {@link Groth16Verifier}, and prove start's four G1 sums (and ΣB2 where the device computed
 * it) must equal the CPU backend's on the same key and witness (prove start has no randomness, so they are exactly
 * comparable) — both on the first prove start, which uploads the key, and on a second, which finds it resident.
 * Writes proof.json, public.json and verification_key.json of the first case of each curve for snarkjs. (Timing the
 * proofs is the lab's: {@code bench gpu --proofs}.)
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

    private final PrintStream out;
    private final Path outDir;
    private final GpuConfig config;
    private final long deadlineNanos;
    private final List<String> table = new ArrayList<>();
    private int failures;

    /**
     * @param seconds no case starts after this many seconds from construction
     * @param config  the GPU backend's settings
     */
    public GpuProofCheck(PrintStream out, Path outDir, long seconds, GpuConfig config) {
        this.out = out;
        this.outDir = outDir;
        this.config = config;
        this.deadlineNanos = System.nanoTime() + seconds * 1_000_000_000L;
    }

    /** Runs the cases in order; returns the number of failures. */
    public int run(List<Case> cases) {
        Set<String> written = new HashSet<>();
        try (GpuProverBackend gpu = new GpuProverBackend(config)) {
            out.println("proofs on " + gpu.device());
            for (Case c : cases) {
                String label = String.format(Locale.ROOT, "%-9s 2^%-3d", c.curve().name(), c.logConstraints());
                if (System.nanoTime() > deadlineNanos) {
                    line(label + " skipped: out of time");
                    continue;
                }
                try {
                    runCase(gpu, c, label, outDir != null && written.add(c.curve().name()));
                } catch (RuntimeException | IOException e) {
                    failures++;
                    line(label + " FAIL " + e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }
        }
        return summary();
    }

    /**
     * Proves every committed circom fixture under {@code root} ({@code <curve>/<circuit>/circuit.zkey} and
     * {@code witness.wtns}, as snarkjs made them) on the GPU backend: each proof must verify and prove start's sums
     * must equal the CPU backend's. With an output folder, writes proof.json, public.json and verification_key.json
     * (exported from the zkey) to {@code <out>/<curve>-<circuit>/}, plus the fixture's own snarkjs-made key as
     * {@code snarkjs_verification_key.json}, for {@code scripts/lab/verify-gpu-proofs.sh}. Returns the number of failures.
     */
    public int runFixtures(Path root) throws IOException {
        List<Path> fixtures = fixtures(root);
        if (fixtures.isEmpty()) {
            throw new IOException("no fixtures (circuit.zkey + witness.wtns) under " + root);
        }
        try (GpuProverBackend gpu = new GpuProverBackend(config)) {
            out.println("fixtures on " + gpu.device());
            for (Path dir : fixtures) {
                String name = dir.getParent().getFileName() + "-" + dir.getFileName();
                String label = String.format(Locale.ROOT, "%-28s", name);
                if (System.nanoTime() > deadlineNanos) {
                    line(label + " skipped: out of time");
                    continue;
                }
                try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"), PointCheck.CURVE);
                     Witness witness = WtnsReader.read(dir.resolve("witness.wtns"), key)) {
                    Path written = prove(gpu, label, key, witness, outDir == null ? null : outDir.resolve(name));
                    Path snarkjsKey = dir.resolve("verification_key.json");
                    if (written != null && Files.exists(snarkjsKey)) {
                        Files.copy(snarkjsKey, written.resolve("snarkjs_verification_key.json"),
                                StandardCopyOption.REPLACE_EXISTING);
                    }
                    gpu.evict(key);
                } catch (RuntimeException | IOException e) {
                    failures++;
                    line(label + " FAIL " + e.getClass().getSimpleName() + ": " + e.getMessage());
                }
            }
        }
        return summary();
    }

    /** {@code root/<curve>/<circuit>/} folders holding circuit.zkey and witness.wtns, sorted. */
    static List<Path> fixtures(Path root) throws IOException {
        List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return found;
        }
        try (Stream<Path> curves = Files.list(root)) {
            for (Path curve : curves.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> circuits = Files.list(curve)) {
                    circuits.filter(d -> Files.exists(d.resolve("circuit.zkey")) && Files.exists(d.resolve("witness.wtns")))
                            .sorted().forEach(found::add);
                }
            }
        }
        return found;
    }

    private int summary() {
        out.println();
        out.println("== Groth16 proofs on the GPU backend ==");
        table.forEach(out::println);
        out.println(failures == 0 ? "all proofs verified" : failures + " proof checks FAILED");
        return failures;
    }

    private void runCase(GpuProverBackend gpu, Case c, String label, boolean write) throws IOException {
        int constraints = 1 << c.logConstraints();
        try (DevSetup.Result dev = DevSetup.generate(c.curve(), constraints, PUBLIC, 42 + c.logConstraints())) {
            prove(gpu, label, dev.key(), dev.witness(), write ? outDir.resolve(c.curve().name()) : null);
            gpu.evict(dev.key());
        }
    }

    /**
     * Proves on the GPU (verified), compares prove start's sums with the CPU backend's, prints the row, and writes the
     * proof's files to {@code writeDir} when it verified; returns the folder written, or null.
     */
    private Path prove(GpuProverBackend gpu, String label, ProvingKey key, Witness witness, Path writeDir)
            throws IOException {
        try (Arena arena = Arena.ofShared()) {
            // a/b/c as the backend is configured: on the device from the key's rows, or from the host (which the GPU
            // does not overwrite, so one synthesis serves both prove starts).
            AbcSource abc = gpu.abcOnDevice() ? AbcSource.DEVICE
                    : AbcSource.host(Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8)));
            PendingProof uploading = gpu.proveStart(key, witness, abc);
            PendingProof resident = gpu.proveStart(key, witness, abc);
            Proof proof = gpu.proveFinish(resident);
            VerifyingKey vk = VerifyingKey.of(key);
            BigInteger[] publicSignals = witness.publicSignals(key.nPublic());
            boolean valid = Groth16Verifier.verify(PreparedVerifyingKey.prepare(vk), publicSignals, proof).valid();
            // The CPU backend may overwrite its a/b/c: a synthesis of its own.
            Synthesized abcCpu = Synthesis.evaluate(key, witness, bytes -> arena.allocate(bytes, 8));
            PendingProof cpu = new CpuProverBackend().proveStart(key, witness, AbcSource.host(abcCpu));
            boolean same = sameSums(cpu, uploading, key, witness) && sameSums(cpu, resident, key, witness);
            if (!valid || !same) {
                failures++;
            }
            line(String.format(Locale.ROOT, "%s a/b/c on %s B2 on %s domain %8d, %8d vars  %s  sums %s", label,
                    abc == AbcSource.DEVICE ? "gpu" : "cpu", resident.hasSumB2() ? "gpu" : "cpu", key.domainSize(),
                    key.nVars(), valid ? "VERIFIED" : "INVALID ", same ? "=cpu" : "DIFFER"));
            long[] bytes = gpu.deviceBytes();
            out.printf(Locale.ROOT, "  device bytes: resident keys %d MiB, working buffers %d MiB%n", bytes[0] >> 20,
                    bytes[1] >> 20);
            if (writeDir == null || !valid) {
                return null;
            }
            Files.createDirectories(writeDir);
            ProofJson.write(proof, writeDir.resolve("proof.json"));
            PublicSignalsJson.write(publicSignals, writeDir.resolve("public.json"));
            VerificationKeyJson.write(vk, writeDir.resolve("verification_key.json"));
            out.println("  wrote " + writeDir + "/{proof,public,verification_key}.json");
            return writeDir;
        }
    }

    /** Whether the GPU's sums are the CPU's: the four G1 sums, and ΣB2 where the GPU computed it in prove start. */
    private static boolean sameSums(PendingProof cpu, PendingProof gpu, ProvingKey key, Witness witness) {
        return Arrays.equals(cpu.sumA(), gpu.sumA()) && Arrays.equals(cpu.sumB1(), gpu.sumB1())
                && Arrays.equals(cpu.sumC(), gpu.sumC()) && Arrays.equals(cpu.sumH(), gpu.sumH())
                && (!gpu.hasSumB2() || Arrays.equals(gpu.sumB2(), Msm.compute(key.curve().g2(), key.b2(), 0,
                        witness.canonical(), 0, key.nVars())));
    }

    private void line(String s) {
        table.add(s);
        out.println("  proof " + s);
        out.flush();
    }
}
