package io.proofline.snark.format;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Our JSON writers against the files snarkjs wrote, byte for byte. */
class SnarkjsJsonTest {

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void verificationKeyExportedFromTheZkeyIsSnarkjsFileByteForByte(SnarkCurve curve) throws Exception {
        String expected = Files.readString(SnarkjsFixtures.file(curve, "verification_key.json"));
        try (ProvingKey key = ZkeyReader.read(SnarkjsFixtures.file(curve, "circuit.zkey"))) {
            String ours = VerificationKeyJson.toString(VerifyingKey.of(key));
            assertEquals(SnarkjsFixtures.JSON.readTree(expected), SnarkjsFixtures.JSON.readTree(ours), "as JSON values");
            assertEquals(expected, ours, "byte for byte");
        }
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void verificationKeyReadAndWrittenBackIsUnchanged(SnarkCurve curve) throws Exception {
        String expected = Files.readString(SnarkjsFixtures.file(curve, "verification_key.json"));
        VerifyingKey vk = VerificationKeyJson.parse(expected, "verification_key.json");
        assertEquals(curve, vk.curve());
        assertEquals(expected, VerificationKeyJson.toString(vk));
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void proofAndPublicSignalsRoundTripByteForByte(SnarkCurve curve) throws Exception {
        String proofText = Files.readString(SnarkjsFixtures.file(curve, "proof.json"));
        Proof proof = ProofJson.parse(proofText, "proof.json");
        assertEquals(proofText, ProofJson.toString(proof));
        String publicText = Files.readString(SnarkjsFixtures.file(curve, "public.json"));
        BigInteger[] signals = PublicSignalsJson.parse(publicText, "public.json");
        assertEquals(2, signals.length);
        assertEquals(BigInteger.valueOf(3 * 11 * 7 + 3), signals[0], "out = a·b·c + a");
        assertEquals(BigInteger.valueOf(3), signals[1], "a");
        assertEquals(publicText, PublicSignalsJson.toString(signals));
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void aRapidsnarkProofWithoutCurveIsReadOnTheKeysCurve(SnarkCurve curve) throws Exception {
        String snarkjs = Files.readString(SnarkjsFixtures.file(curve, "proof.json"));
        String rapidsnark = RapidsnarkProofJson.of(SnarkjsFixtures.file(curve, "proof.json"));
        Proof proof = ProofJson.parse(rapidsnark, "proof.json", curve);
        assertEquals(curve, proof.curve());
        assertEquals(snarkjs, ProofJson.toString(proof), "the same proof as snarkjs's file");
        FormatException withoutKey = assertThrows(FormatException.class, () -> ProofJson.parse(rapidsnark, "proof.json"));
        assertEquals("proof.json: 'curve' is missing", withoutKey.getMessage());
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void aProofThatNamesItsCurveKeepsItWhateverTheKeysCurve(SnarkCurve curve) throws Exception {
        String snarkjs = Files.readString(SnarkjsFixtures.file(curve, "proof.json"));
        SnarkCurve other = SnarkCurves.all().stream().filter(c -> c != curve).findFirst().orElseThrow();
        assertEquals(curve, ProofJson.parse(snarkjs, "proof.json", other).curve());
    }
}
