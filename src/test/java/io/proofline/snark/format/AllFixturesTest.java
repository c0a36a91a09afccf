package io.proofline.snark.format;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every snarkjs fixture circuit — the generated set in {@code src/test/resources/fixtures/<curve>/<circuit>/}
 * (branch {@code fixtures}) and the small {@code snarkjs/mul3/<curve>/} — read, cross-checked and verified:
 * key, witness and r1cs parse; the witness satisfies the r1cs and fits the key; our exported verification key is
 * snarkjs's file byte for byte; snarkjs's proof verifies and a tampered public signal does not.
 */
@Tag("slow")
class AllFixturesTest {

    private static final Path GENERATED = Path.of("src/test/resources/fixtures");
    private static final Path SMALL = Path.of("src/test/resources/snarkjs");

    @TestFactory
    Stream<DynamicTest> everyFixtureParsesCrossChecksAndVerifies() throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (SnarkCurve curve : SnarkCurves.all()) {
            Path root = GENERATED.resolve(curve.name());
            if (Files.isDirectory(root)) {
                try (Stream<Path> circuits = Files.list(root)) {
                    circuits.filter(d -> Files.exists(d.resolve("circuit.zkey"))).sorted().forEach(dirs::add);
                }
            }
        }
        try (Stream<Path> circuits = Files.list(SMALL)) {
            for (Path circuit : circuits.sorted().toList()) {
                for (SnarkCurve curve : SnarkCurves.all()) {
                    if (Files.exists(circuit.resolve(curve.name()).resolve("circuit.zkey"))) {
                        dirs.add(circuit.resolve(curve.name()));
                    }
                }
            }
        }
        return dirs.stream().map(d -> DynamicTest.dynamicTest(d.toString(), () -> check(d)));
    }

    private static void check(Path dir) throws Exception {
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"));
             Witness w = WtnsReader.read(dir.resolve("witness.wtns"), key)) {
            SnarkCurve curve = key.curve();
            if (Files.exists(dir.resolve("circuit.r1cs"))) {
                R1cs r1cs = R1csReader.read(dir.resolve("circuit.r1cs"));
                assertEquals(curve, r1cs.curve());
                assertEquals(key.nVars(), r1cs.nWires());
                assertEquals(key.nPublic(), r1cs.nPublic());
                OptionalInt bad = r1cs.firstUnsatisfied(w);
                assertTrue(bad.isEmpty(), () -> r1cs.describe(bad.getAsInt(), w));
            }
            String vkText = Files.readString(dir.resolve("verification_key.json"));
            assertEquals(vkText, VerificationKeyJson.toString(VerifyingKey.of(key)), "export-vkey byte for byte");

            VerifyingKey vk = VerificationKeyJson.parse(vkText, "verification_key.json");
            PreparedVerifyingKey pvk = PreparedVerifyingKey.prepare(vk);
            BigInteger[] signals = PublicSignalsJson.read(dir.resolve("public.json"));
            Proof proof = ProofJson.read(dir.resolve("proof.json"));
            assertTrue(Groth16Verifier.verify(pvk, signals, proof).valid(), "snarkjs's proof verifies");
            assertEquals(List.of(w.publicSignals(key.nPublic())), List.of(signals), "public.json = w[1..nPublic]");
            if (signals.length > 0) {
                BigInteger[] tampered = signals.clone();
                tampered[0] = tampered[0].add(BigInteger.ONE).mod(curve.fr().modulus());
                assertFalse(Groth16Verifier.verify(pvk, tampered, proof).valid(), "tampered signal rejected");
            }
        }
    }
}
