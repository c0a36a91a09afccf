package io.proofline.cli;

import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.RapidsnarkProofJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerifyAndExportCommandsTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    private static String fixture(SnarkCurve curve, String name) {
        return Path.of("src/test/resources/snarkjs/mul3", curve.name(), name).toString();
    }

    private int cli(String... args) {
        return Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @MethodSource("curves")
    void verifyPrintsOkForSnarkjsProof(SnarkCurve curve) {
        int code = cli("verify", fixture(curve, "verification_key.json"), fixture(curve, "public.json"),
                fixture(curve, "proof.json"));
        assertEquals(0, code, stderr());
        assertEquals("OK\n", stdout());
    }

    @ParameterizedTest
    @MethodSource("curves")
    void verifyExitsOneWithReasonForWrongPublicSignals(SnarkCurve curve) throws Exception {
        Path wrong = tmp.resolve("public.json");
        Files.writeString(wrong, "[\n \"232\",\n \"3\"\n]");
        int code = cli("verify", fixture(curve, "verification_key.json"), wrong.toString(), fixture(curve, "proof.json"));
        assertEquals(1, code);
        assertTrue(stderr().startsWith("INVALID: the pairing check fails"), stderr());
    }

    @Test
    void verifyExitsTwoWithOneLineNamingAMalformedFile() throws Exception {
        SnarkCurve curve = SnarkCurves.BN128;
        Path broken = tmp.resolve("proof.json");
        Files.writeString(broken, Files.readString(Path.of(fixture(curve, "proof.json"))).replace("\"1\"\n ]", "\"2\"\n ]"));
        Files.writeString(broken, "{\"pi_a\": [\"1\", \"3\", \"1\"], \"pi_b\": [], \"pi_c\": [], \"protocol\": \"groth16\", "
                + "\"curve\": \"bn128\"}");
        int code = cli("verify", fixture(curve, "verification_key.json"), fixture(curve, "public.json"), broken.toString());
        assertEquals(2, code);
        assertEquals("verify: proof.json: pi_a is not on the curve of bn254.G1\n", stderr());
    }

    @ParameterizedTest
    @MethodSource("curves")
    void verifyAcceptsRapidsnarksProofWithoutCurveOnTheKeysCurve(SnarkCurve curve) throws Exception {
        Path proof = tmp.resolve("proof.json");
        Files.writeString(proof, RapidsnarkProofJson.of(Path.of(fixture(curve, "proof.json"))));
        int code = cli("verify", fixture(curve, "verification_key.json"), fixture(curve, "public.json"), proof.toString());
        assertEquals(0, code, stderr());
        assertEquals("OK\n", stdout());
    }

    @Test
    void aRapidsnarkProofAgainstAKeyOfTheOtherCurveIsRefusedNamingTheFile() throws Exception {
        Path proof = tmp.resolve("proof.json");
        Files.writeString(proof, RapidsnarkProofJson.of(Path.of(fixture(SnarkCurves.BN128, "proof.json"))));
        int code = cli("verify", fixture(SnarkCurves.BLS12381, "verification_key.json"),
                fixture(SnarkCurves.BLS12381, "public.json"), proof.toString());
        assertEquals(2, code);
        assertTrue(stderr().startsWith("verify: proof.json: pi_a "), stderr());
    }

    @Test
    void verifyExitsTwoForAMissingFile() {
        int code = cli("verify", "nope.json", "public.json", "proof.json");
        assertEquals(2, code);
        assertEquals("verify: nope.json: no such file\n", stderr());
    }

    @ParameterizedTest
    @MethodSource("curves")
    void exportVkeyWritesSnarkjsFileByteForByte(SnarkCurve curve) throws Exception {
        Path vk = tmp.resolve("verification_key.json");
        assertEquals(0, cli("export-vkey", fixture(curve, "circuit.zkey"), vk.toString()), stderr());
        assertEquals(Files.readString(Path.of(fixture(curve, "verification_key.json"))), Files.readString(vk));
    }

    @Test
    void exportVkeyExitsTwoNamingACorruptKey() throws Exception {
        Path bad = tmp.resolve("bad.zkey");
        Files.write(bad, new byte[] {'z', 'k', 'e', 'y', 9, 0, 0, 0, 0, 0, 0, 0});
        assertEquals(2, cli("export-vkey", bad.toString(), tmp.resolve("vk.json").toString()));
        assertEquals("export-vkey: bad.zkey: unsupported .zkey version 9 (expected 1)\n", stderr());
    }
}
