package io.proofline.cli;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.Witness;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.R1csReader;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.prover.Groth16Prover;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.Synthesis;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--backend auto|cpu|gpu] [--r1cs circuit.r1cs]
 * [--timings]} and the GPU flags ({@link GpuOptions}): rapidsnark's argument order. The backend is chosen as
 * {@link BackendChoice} says (auto: the GPU where one is usable); the choice and the key's point checks overlap the
 * reading and the proof ({@link ProofSetup}). With {@code --r1cs} the witness is first checked against every
 * constraint; with {@code --timings} the run's split is printed on stderr ({@link RunTimings}): "backend" and "key
 * check" are what was still left to wait for when the proof needed them.
 */
final class ProveCommand implements Cli.Command {

    static final String TIMINGS = "--timings";

    @Override
    public String usage() {
        return "prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> " + BackendChoice.USAGE
                + " [--r1cs circuit.r1cs] [--timings] " + GpuOptions.USAGE;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        RunTimings timings = new RunTimings();
        boolean printTimings = Arrays.asList(args).contains(TIMINGS);
        Map<String, String> opts = Options.parse(withoutFlag(args, TIMINGS),
                GpuOptions.with(BackendChoice.OPTION, "--r1cs"));
        if (Options.positionalCount(opts) != 4) {
            throw new UsageException("expected 4 file arguments");
        }
        BackendChoice.check(opts);
        Path zkey = CliFiles.existing(opts.get("0"));
        Path wtns = CliFiles.existing(opts.get("1"));
        try (ProofSetup setup = ProofSetup.start(opts, zkey)) {
            ProvingKey key = setup.key();
            timings.mark("key read");
            try (Witness witness = WtnsReader.read(wtns, key)) {
                timings.mark("witness read");
                if (opts.containsKey("--r1cs")) {
                    requireSatisfies(CliFiles.existing(opts.get("--r1cs")), witness, wtns);
                    timings.mark("r1cs check");
                }
                ProverBackend backend = setup.backend(err);
                timings.mark("backend");
                Proof proof = new Groth16Prover(backend).prove(key, witness);
                timings.mark("proof");
                setup.requireKeyChecked();
                timings.mark("key check");
                write(proof, witness, key.nPublic(), Path.of(opts.get("2")), Path.of(opts.get("3")));
                timings.mark("files written");
            }
        }
        if (printTimings) {
            timings.print(err);
        }
        return 0;
    }

    /** Releases a GPU backend's context and buffers (the CPU backend holds none). */
    static void closeDevice(ProverBackend backend) throws Exception {
        if (backend instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    private static String[] withoutFlag(String[] args, String flag) {
        return Arrays.stream(args).filter(a -> !a.equals(flag)).toArray(String[]::new);
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
