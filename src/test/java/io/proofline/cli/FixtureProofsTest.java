package io.proofline.cli;

import io.proofline.interop.SnarkjsCli;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.R1csReader;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.VerificationResult;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every committed real-circuit fixture ({@code src/test/resources/fixtures/<curve>/<circuit>/}) on both curves: the
 * CLI's {@code fullprove} computes the fixture's exact witness and a proof that our verifier and
 * {@code snarkjs groth16 verify} accept; {@code prove} on the fixture's own .wtns (checked against the .r1cs) too.
 */
@Tag("slow")
class FixtureProofsTest {

    static final Path FIXTURES = Path.of("src/test/resources/fixtures");

    @TempDir
    Path tmp;

    static List<Path> fixtures() throws Exception {
        List<Path> r = new ArrayList<>();
        if (!Files.isDirectory(FIXTURES)) {
            return r;
        }
        try (Stream<Path> curves = Files.list(FIXTURES)) {
            for (Path curve : curves.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> circuits = Files.list(curve)) {
                    circuits.filter(d -> Files.exists(d.resolve("circuit.zkey")) && Files.exists(d.resolve("circuit.wasm")))
                            .sorted().forEach(r::add);
                }
            }
        }
        return r;
    }

    @TestFactory
    Stream<DynamicTest> everyFixtureProvesAndVerifies() throws Exception {
        List<Path> all = fixtures();
        assumeTrue(!all.isEmpty(), "no fixtures under " + FIXTURES + " (the fixtures branch adds them)");
        return all.stream().map(dir -> DynamicTest.dynamicTest(dir.getParent().getFileName() + "/" + dir.getFileName(),
                () -> check(dir)));
    }

    private void check(Path dir) throws Exception {
        Path out = Files.createDirectories(tmp.resolve(dir.getParent().getFileName() + "-" + dir.getFileName()));
        // fullprove: the computed witness equals the fixture's, and the proof verifies
        try (Witness computed = FullproveCommand.computeWitness(dir.resolve("input.json"), dir.resolve("circuit.wasm"));
             Witness expected = WtnsReader.read(dir.resolve("witness.wtns"))) {
            assertEquals(expected.size(), computed.size(), "witness length");
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.value(i), computed.value(i), "witness value " + i);
            }
        }
        assertEquals(0, cli("fullprove", dir.resolve("input.json"), dir.resolve("circuit.wasm"),
                dir.resolve("circuit.zkey"), out.resolve("proof.json"), out.resolve("public.json")));
        checkVerifies(dir, out.resolve("proof.json"), out.resolve("public.json"));

        // prove on the fixture's .wtns, checked against its .r1cs first
        assertEquals(0, cli("prove", dir.resolve("circuit.zkey"), dir.resolve("witness.wtns"),
                out.resolve("proof2.json"), out.resolve("public2.json"), "--r1cs", dir.resolve("circuit.r1cs")));
        checkVerifies(dir, out.resolve("proof2.json"), out.resolve("public2.json"));
        assertArrayEquals(PublicSignalsJson.read(dir.resolve("public.json")),
                PublicSignalsJson.read(out.resolve("public2.json")), "public.json equals snarkjs's");
    }

    private static void checkVerifies(Path dir, Path proofJson, Path publicJson) throws Exception {
        VerifyingKey vk = VerificationKeyJson.read(dir.resolve("verification_key.json"));
        BigInteger[] signals = PublicSignalsJson.read(publicJson);
        Proof proof = ProofJson.read(proofJson);
        VerificationResult r = Groth16Verifier.verify(vk, signals, proof);
        assertTrue(r.valid(), dir + ": our verifier: " + r.reason());
        if (!Files.isExecutable(SnarkjsCli.executable())) {
            System.out.println("snarkjs not installed (scripts/install-node-tools.sh): snarkjs verification skipped");
            return;
        }
        SnarkjsCli.Result s = SnarkjsCli.run("groth16", "verify", dir.resolve("verification_key.json").toString(),
                publicJson.toString(), proofJson.toString());
        assertTrue(s.ok() && s.output().contains("OK!"), dir + ": snarkjs groth16 verify: " + s.output());
    }

    static int cli(Object... args) {
        String[] a = Stream.of(args).map(Object::toString).toArray(String[]::new);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(a, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        if (rc != 0) {
            System.out.println(String.join(" ", a) + " -> " + rc + ": " + err);
        }
        return rc;
    }
}
