package io.proofline.cli;

import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.format.ZkeyWriter;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.setup.WitnessDistribution;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code dev-circuit --curve bn128|bls12381 --constraints N --out DIR [--public N] [--seed S]
 * [--domain N] [--witness uniform|porep]}: a synthetic circuit with an INSECURE known-secret setup, for demos and
 * benchmarks. {@code --domain} (a power of two) makes the domain larger than the circuit needs, so that a/b/c and H
 * dominate memory and proving time (memory tests); {@code --witness porep} makes over 90 % of the witness 0 or 1, as
 * in Filecoin's PoRep circuits ({@link WitnessDistribution}). Writes {@code circuit.zkey},
 * {@code verification_key.json} and a satisfying {@code witness.wtns}.
 */
final class DevCircuitCommand implements Cli.Command {

    @Override
    public String usage() {
        return "dev-circuit --curve bn128|bls12381 --constraints N --out DIR [--public N] [--seed S] [--domain N]"
                + " " + WitnessOption.USAGE;
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> opts = Options.parse(args, "--curve", "--constraints", "--out", "--public", "--seed",
                "--domain", WitnessOption.NAME);
        String curveName = Options.require(opts, "--curve");
        SnarkCurve curve = SnarkCurves.byName(curveName)
                .orElseThrow(() -> new UsageException("unknown curve '" + curveName + "' (bn128 or bls12381)"));
        int constraints = Options.intValue(opts, "--constraints", -1);
        if (constraints < 1) {
            throw new UsageException("--constraints must be a positive integer");
        }
        int nPublic = Options.intValue(opts, "--public", 2);
        if (nPublic < 1) {
            throw new UsageException("--public must be a positive integer");
        }
        int domain = Options.intValue(opts, "--domain", 1);
        if (domain < 1 || Integer.bitCount(domain) != 1) {
            throw new UsageException("--domain must be a power of two");
        }
        WitnessDistribution distribution = WitnessOption.of(opts);
        long seed = opts.containsKey("--seed") ? Long.parseLong(opts.get("--seed")) : System.nanoTime();
        Path dir = Path.of(Options.require(opts, "--out"));
        Files.createDirectories(dir);

        out.println("INSECURE development setup: the toxic secrets were generated in this process. Never use this"
                + " key for anything of value.");
        long start = System.nanoTime();
        try (DevSetup.Result r = DevSetup.generate(curve, constraints, nPublic, seed, domain,
                distribution)) {
            long setupMs = (System.nanoTime() - start) / 1_000_000;
            ZkeyWriter.write(r.key(), dir.resolve("circuit.zkey"));
            WtnsWriter.write(r.witness(), dir.resolve("witness.wtns"));
            VerificationKeyJson.write(VerifyingKey.of(r.key()), dir.resolve("verification_key.json"));
            out.printf("%s: %d constraints, %d variables, %d public, domain 2^%d, %s witness; setup %d ms, total %d ms"
                    + " -> %s%n", curve, constraints, r.key().nVars(), nPublic,
                    Integer.numberOfTrailingZeros(r.key().domainSize()), distribution.cliName(), setupMs, (System.nanoTime() - start) / 1_000_000, dir);
        }
        return 0;
    }
}
