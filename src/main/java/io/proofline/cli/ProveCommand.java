package io.proofline.cli;

import io.proofline.gpu.GpuProverBackend;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.Witness;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.R1csReader;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.Groth16Prover;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.ProverBackends;
import io.proofline.snark.prover.Synthesis;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--backend cpu|gpu] [--r1cs circuit.r1cs]}
 * and the GPU flags ({@link GpuOptions}): rapidsnark's argument order. With {@code --r1cs} the witness is first checked
 * against every constraint.
 */
final class ProveCommand implements Cli.Command {

    @Override
    public String usage() {
        return "prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--backend "
                + String.join("|", ProverBackends.names()) + "] [--r1cs circuit.r1cs] " + GpuOptions.USAGE;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> opts = Options.parse(args, GpuOptions.with("--backend", "--r1cs"));
        if (Options.positionalCount(opts) != 4) {
            throw new UsageException("expected 4 file arguments");
        }
        ProverBackend backend = backend(opts);
        Path zkey = CliFiles.existing(opts.get("0"));
        Path wtns = CliFiles.existing(opts.get("1"));
        try (ProvingKey key = ZkeyReader.read(zkey, PointCheck.CURVE);
             Witness witness = WtnsReader.read(wtns, key)) {
            if (opts.containsKey("--r1cs")) {
                requireSatisfies(CliFiles.existing(opts.get("--r1cs")), witness, wtns);
            }
            Proof proof = new Groth16Prover(backend).prove(key, witness);
            write(proof, witness, key.nPublic(), Path.of(opts.get("2")), Path.of(opts.get("3")));
        }
        return 0;
    }

    /** The backend {@code --backend} names; the GPU one with the configuration of the GPU flags. */
    static ProverBackend backend(Map<String, String> opts) throws UsageException {
        String name = opts.getOrDefault("--backend", "cpu");
        if (name.equals(GpuProverBackend.NAME)) {
            return new GpuProverBackend(GpuOptions.config(opts));
        }
        return ProverBackends.byName(name).orElseThrow(() -> new UsageException("unknown backend '" + name
                + "' (available: " + String.join(", ", ProverBackends.names()) + ")"));
    }

    static void requireSatisfies(Path r1csPath, Witness witness, Path wtns) throws Exception {
        R1cs r1cs = R1csReader.read(r1csPath);
        try {
            Synthesis.requireSatisfies(r1cs, witness);
        } catch (IllegalArgumentException e) {
            throw new FormatException(wtns.getFileName().toString(), e.getMessage().replace("the r1cs",
                    r1csPath.getFileName().toString()));
        }
    }

    static void write(Proof proof, Witness witness, int nPublic, Path proofJson, Path publicJson) throws Exception {
        ProofJson.write(proof, proofJson);
        PublicSignalsJson.write(witness.publicSignals(nPublic), publicJson);
    }
}
