package io.proofline.snark.prover;

import io.proofline.interop.SnarkjsCli;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.VerificationResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuProverTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    private static final Groth16Prover PROVER = new Groth16Prover(new CpuProverBackend());

    @ParameterizedTest
    @MethodSource("curves")
    void proofOfTheSnarkjsFixtureVerifies(SnarkCurve curve, @TempDir Path tmp) throws Exception {
        Path dir = MUL3.resolve(curve.name());
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"));
             Witness w = WtnsReader.read(dir.resolve("witness.wtns"), key)) {
            Proof proof = PROVER.prove(key, w);
            checkValid(VerifyingKey.of(key), w.publicSignals(key.nPublic()), proof, tmp,
                    dir.resolve("verification_key.json"));
        }
    }

    /** The CPU backend has no device: asked to evaluate a/b/c there, it refuses before any work. */
    @Test
    void abcComeOnlyFromTheHost() throws Exception {
        Path dir = MUL3.resolve("bn128");
        try (ProvingKey key = ZkeyReader.read(dir.resolve("circuit.zkey"));
             Witness w = WtnsReader.read(dir.resolve("witness.wtns"), key)) {
            CpuProverBackend cpu = new CpuProverBackend();
            assertFalse(cpu.abcOnDevice());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> cpu.proveStart(key, w, AbcSource.DEVICE));
            assertTrue(e.getMessage().contains("from the host"), e.getMessage());
        }
    }

    /** A dev circuit whose domain spans several NTT blocks; 1 and 2 public signals; verified by both verifiers. */
    @Tag("slow")
    @ParameterizedTest
    @MethodSource("curves")
    void proofOfADevCircuitVerifies(SnarkCurve curve, @TempDir Path tmp) throws Exception {
        for (int nPublic = 1; nPublic <= 2; nPublic++) {
            long seed = 1000L * nPublic + curve.name().length();
            try (DevSetup.Result dev = DevSetup.generate(curve, 3000, nPublic, seed)) {
                Proof proof = PROVER.prove(dev.key(), dev.witness());
                VerifyingKey vk = VerifyingKey.of(dev.key());
                Path vkJson = tmp.resolve("vk" + nPublic + ".json");
                VerificationKeyJson.write(vk, vkJson);
                checkValid(vk, dev.witness().publicSignals(nPublic), proof, tmp, vkJson);
            }
        }
    }

    private static void checkValid(VerifyingKey vk, BigInteger[] signals, Proof proof, Path tmp, Path vkJson)
            throws Exception {
        VerificationResult ours = Groth16Verifier.verify(vk, signals, proof);
        assertTrue(ours.valid(), "our verifier: " + ours.reason());
        BigInteger[] wrong = signals.clone();
        wrong[0] = wrong[0].add(BigInteger.ONE).mod(vk.curve().fr().modulus());
        assertFalse(Groth16Verifier.verify(vk, wrong, proof).valid(), "a changed public signal must not verify");
        if (!Files.isExecutable(SnarkjsCli.executable())) {
            System.out.println("snarkjs not installed (scripts/install-node-tools.sh): snarkjs verification skipped");
            return;
        }
        Path proofJson = tmp.resolve("proof.json");
        Path publicJson = tmp.resolve("public.json");
        ProofJson.write(proof, proofJson);
        PublicSignalsJson.write(signals, publicJson);
        SnarkjsCli.Result r = SnarkjsCli.run("groth16", "verify", vkJson.toString(), publicJson.toString(),
                proofJson.toString());
        assertTrue(r.ok() && r.output().contains("OK!"), "snarkjs groth16 verify: " + r.output());
    }
}
