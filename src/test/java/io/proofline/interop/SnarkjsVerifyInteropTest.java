package io.proofline.interop;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.format.ZkeyWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** snarkjs itself accepts what our writers produce (the pattern other interop tests copy). */
@Tag("slow")
class SnarkjsVerifyInteropTest {

    @TempDir
    Path tmp;

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    private static String fixture(SnarkCurve curve, String name) {
        return Path.of("src/test/resources/snarkjs/mul3", curve.name(), name).toString();
    }

    @ParameterizedTest
    @MethodSource("curves")
    void snarkjsVerifiesItsOwnProof(SnarkCurve curve) throws Exception {
        SnarkjsCli.assumeAvailable();
        SnarkjsCli.Result r = SnarkjsCli.run("groth16", "verify", fixture(curve, "verification_key.json"),
                fixture(curve, "public.json"), fixture(curve, "proof.json"));
        assertTrue(r.ok() && r.output().contains("OK!"), r.output());
    }

    @ParameterizedTest
    @MethodSource("curves")
    void snarkjsAcceptsOurVerificationKeyAndProofFilesAndRejectsATamperedOne(SnarkCurve curve) throws Exception {
        SnarkjsCli.assumeAvailable();
        Path vk = tmp.resolve("verification_key.json");
        Path pub = tmp.resolve("public.json");
        Path proof = tmp.resolve("proof.json");
        try (ProvingKey key = ZkeyReader.read(Path.of(fixture(curve, "circuit.zkey")))) {
            VerificationKeyJson.write(VerifyingKey.of(key), vk);
        }
        Proof p = ProofJson.read(Path.of(fixture(curve, "proof.json")));
        ProofJson.write(p, proof);
        PublicSignalsJson.write(PublicSignalsJson.read(Path.of(fixture(curve, "public.json"))), pub);
        SnarkjsCli.Result ok = SnarkjsCli.run("groth16", "verify", vk.toString(), pub.toString(), proof.toString());
        assertTrue(ok.ok() && ok.output().contains("OK!"), ok.output());

        // Swapping πA and πC (both valid G1 points) must make snarkjs refuse it too.
        ProofJson.write(new Proof(curve, p.c(), p.b(), p.a()), proof);
        SnarkjsCli.Result bad = SnarkjsCli.run("groth16", "verify", vk.toString(), pub.toString(), proof.toString());
        assertFalse(bad.output().contains("OK!"), bad.output());
    }

    @ParameterizedTest
    @MethodSource("curves")
    void snarkjsProvesWithAKeyOurZkeyWriterWrote(SnarkCurve curve) throws Exception {
        SnarkjsCli.assumeAvailable();
        Path zkey = tmp.resolve("circuit.zkey");
        try (ProvingKey key = ZkeyReader.read(Path.of(fixture(curve, "circuit.zkey")))) {
            // Dropping the contributions section makes the writer emit the fresh-key one (hash 0, no contributions).
            ProvingKey fresh = ProvingKey.builder().curve(key.curve())
                    .shape(key.nVars(), key.nPublic(), key.domainSize())
                    .alpha1(key.alpha1()).beta1(key.beta1()).beta2(key.beta2()).gamma2(key.gamma2())
                    .delta1(key.delta1()).delta2(key.delta2()).ic(key.ic()).coefficients(key.coefficients())
                    .a(key.a()).b1(key.b1()).b2(key.b2()).c(key.c()).h(key.h()).build();
            ZkeyWriter.write(fresh, zkey);
        }
        Path vk = tmp.resolve("vk.json");
        Path proof = tmp.resolve("proof.json");
        Path pub = tmp.resolve("public.json");
        SnarkjsCli.Result export = SnarkjsCli.run("zkey", "export", "verificationkey", zkey.toString(), vk.toString());
        assertTrue(export.ok(), export.output());
        SnarkjsCli.Result prove = SnarkjsCli.run("groth16", "prove", zkey.toString(), fixture(curve, "witness.wtns"),
                proof.toString(), pub.toString());
        assertTrue(prove.ok(), prove.output());
        SnarkjsCli.Result verify = SnarkjsCli.run("groth16", "verify", vk.toString(), pub.toString(), proof.toString());
        assertTrue(verify.ok() && verify.output().contains("OK!"), verify.output());
    }
}
