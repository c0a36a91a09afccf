package io.proofline.cli;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.prover.Groth16Prover;
import io.proofline.witness.CircomWitness;
import io.proofline.witness.CalculatorOptions;
import io.proofline.witness.CircomWitnessCalculator;
import io.proofline.witness.WitnessException;
import io.proofline.witness.WitnessLimits;
import io.proofline.witness.WitnessInput;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code fullprove <input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json> [--backend auto|cpu|gpu]}
 * and the GPU flags ({@link GpuOptions}): computes the witness with the circuit's witness calculator, then proves (snarkjs {@code groth16 fullprove}).
 */
final class FullproveCommand implements Cli.Command {

    @Override
    public String usage() {
        return "fullprove <input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json> "
                + BackendChoice.USAGE + " " + GpuOptions.USAGE;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> opts = Options.parse(args, GpuOptions.with(BackendChoice.OPTION));
        if (Options.positionalCount(opts) != 5) {
            throw new UsageException("expected 5 file arguments");
        }
        BackendChoice.check(opts);
        Path input = CliFiles.existing(opts.get("0"));
        Path wasm = CliFiles.existing(opts.get("1"));
        Path zkey = CliFiles.existing(opts.get("2"));
        try (ProofSetup setup = ProofSetup.start(opts, zkey);
             Witness witness = computeWitness(input, wasm)) {
            ProvingKey key = setup.key();
            WtnsReader.requireFits(witness, key, wasm.getFileName() + " (computed witness)");
            Proof proof = new Groth16Prover(setup.backend(err)).prove(key, witness);
            setup.requireKeyChecked();
            ProveCommand.write(proof, witness, key.nPublic(), Path.of(opts.get("3")), Path.of(opts.get("4")));
        }
        return 0;
    }

    /** Runs the calculator; input problems name input.json, module problems the wasm, circuit errors both. */
    static Witness computeWitness(Path input, Path wasm) throws FormatException {
        WitnessInput parsed;
        try {
            parsed = WitnessInput.readJson(input);
        } catch (WitnessException e) {
            throw new FormatException(input.getFileName().toString(), e.getMessage());
        }
        CircomWitness computed;
        try {
            // One's own circuit on one's own machine: no sandbox deadline or memory cap. One witness: recording a
            // witness graph pays off only for the computations after it (bench witness: a recording run costs more
            // than the wasm alone), so the wasm computes it.
            computed = CircomWitnessCalculator.load(wasm, CalculatorOptions.defaults()
                    .withLimits(WitnessLimits.unlimited()).withGraph(false)).calculate(parsed);
        } catch (WitnessException e) {
            String file = switch (e.reason()) {
                case INVALID_MODULE, RUNTIME_TRAP, LIMIT -> wasm.getFileName().toString();
                case INVALID_INPUT -> input.getFileName().toString();
                default -> input.getFileName() + " with " + wasm.getFileName();
            };
            throw new FormatException(file, e.getMessage());
        }
        return toSnarkWitness(computed, wasm);
    }

    /** The calculator's values (canonical little-endian) moved into an off-heap {@link Witness}. */
    static Witness toSnarkWitness(CircomWitness computed, Path wasm) throws FormatException {
        SnarkCurve curve = SnarkCurves.byScalarPrime(computed.prime()).orElseThrow(() -> new FormatException(
                wasm.getFileName().toString(), "circuit prime " + computed.prime() + " is not a supported curve's"));
        if (computed.n8() != curve.fr().bytes()) {
            throw new FormatException(wasm.getFileName().toString(), "witness values of " + computed.n8()
                    + " bytes, expected " + curve.fr().bytes());
        }
        Arena arena = Arena.ofShared();
        MemorySegment values = arena.allocate((long) computed.size() * computed.n8(), 8);
        MemorySegment.copy(MemorySegment.ofArray(computed.toLittleEndianBytes()), 0, values, 0, values.byteSize());
        return new Witness(curve, computed.size(), values, arena);
    }
}
