package io.proofline.service.circuits;

import io.proofline.service.Tenant;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.RapidsnarkProofJson;
import io.proofline.snark.verifier.VerificationResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code POST /api/v1/verify}'s verifier with a given key, on snarkjs's and rapidsnark's proof files. */
class ProofVerifierTest {

    /** A given verification key needs neither the circuit registry nor the key cache. */
    private final ProofVerifier verifier = new ProofVerifier(null, null);

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    private static Path fixture(SnarkCurve curve, String name) {
        return Path.of("src/test/resources/snarkjs/mul3", curve.name(), name);
    }

    @ParameterizedTest
    @MethodSource("curves")
    void aRapidsnarkProofWithoutCurveIsVerifiedOnTheKeysCurve(SnarkCurve curve) throws Exception {
        String vk = Files.readString(fixture(curve, "verification_key.json"));
        String proof = RapidsnarkProofJson.of(fixture(curve, "proof.json"));
        String signals = Files.readString(fixture(curve, "public.json"));

        VerificationResult valid = verifier.verify(Tenant.CONSOLE, null, vk, proof, signals);
        assertTrue(valid.valid(), valid.reason());
        VerificationResult wrong = verifier.verify(Tenant.CONSOLE, null, vk, proof, "[\"232\", \"3\"]");
        assertFalse(wrong.valid(), "a rapidsnark proof is checked, not waved through");
    }
}
