package io.proofline.snark.format;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZkeyReaderTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void readsSnarkjsKeyWhoseHeaderPointsMatchSnarkjsVerificationKey(SnarkCurve curve) throws Exception {
        JsonNode vk = SnarkjsFixtures.json(curve, "verification_key.json");
        try (ProvingKey key = ZkeyReader.read(SnarkjsFixtures.file(curve, "circuit.zkey"))) {
            assertEquals(curve, key.curve());
            assertEquals(2, key.nPublic());
            assertEquals(vk.get("nPublic").asInt(), key.nPublic());
            assertEquals(6, key.nVars(), "1, out, a, b, c, ab");
            assertEquals(8, key.domainSize(), "2^(floor(log2(2 constraints + 2 public)) + 1)");
            assertG1(curve, vk.get("vk_alpha_1"), key.alpha1(), 0);
            assertG2(curve, vk.get("vk_beta_2"), key.beta2());
            assertG2(curve, vk.get("vk_gamma_2"), key.gamma2());
            assertG2(curve, vk.get("vk_delta_2"), key.delta2());
            for (int i = 0; i <= key.nPublic(); i++) {
                assertG1(curve, vk.get("IC").get(i), key.ic(), i * 2 * curve.fq().limbs());
            }
            assertEquals(Files.size(SnarkjsFixtures.file(curve, "circuit.zkey")), key.byteSize());
        }
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void coefficientsDecodeToTheR1csValuesPlusThePublicInputRows(SnarkCurve curve) throws Exception {
        try (ProvingKey key = ZkeyReader.read(SnarkjsFixtures.file(curve, "circuit.zkey"))) {
            Coefficients cs = key.coefficients();
            PrimeField fr = curve.fr();
            long[] v = new long[fr.limbs()];
            // The last nPublic + 1 records are snarkjs's extra rows A[nConstraints + s][s] = 1 (nConstraints = 2).
            for (int s = 0; s <= key.nPublic(); s++) {
                int i = cs.count() - key.nPublic() - 1 + s;
                assertEquals(Coefficients.A, cs.matrix(i));
                assertEquals(2 + s, cs.row(i));
                assertEquals(s, cs.signal(i));
                cs.value(i, v, 0);
                assertEquals(BigInteger.ONE, fr.toBigInteger(v, 0));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void writingAReadKeyGivesSnarkjsFileByteForByte(SnarkCurve curve) throws Exception {
        Path original = SnarkjsFixtures.file(curve, "circuit.zkey");
        Path copy = tmp.resolve("copy.zkey");
        try (ProvingKey key = ZkeyReader.read(original)) {
            ZkeyWriter.write(key, copy);
        }
        assertArrayEquals(Files.readAllBytes(original), Files.readAllBytes(copy));
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void readsFromAConfinedArenaWithoutTouchingItFromOtherThreads(SnarkCurve curve) throws Exception {
        byte[] bytes = Files.readAllBytes(SnarkjsFixtures.file(curve, "circuit.zkey"));
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            java.lang.foreign.MemorySegment seg = arena.allocate(bytes.length);
            seg.copyFrom(java.lang.foreign.MemorySegment.ofArray(bytes));
            try (ProvingKey key = ZkeyReader.parse(seg, "confined.zkey", null)) {
                assertEquals(6, key.nVars());
            }
        }
    }

    static void assertG1(SnarkCurve curve, JsonNode expected, long[] limbs, int off) {
        PrimeField fq = curve.fq();
        assertEquals(new BigInteger(expected.get(0).asString()), fq.toBigInteger(limbs, off));
        assertEquals(new BigInteger(expected.get(1).asString()), fq.toBigInteger(limbs, off + fq.limbs()));
        assertEquals("1", expected.get(2).asString());
    }

    static void assertG2(SnarkCurve curve, JsonNode expected, long[] limbs) {
        PrimeField fq = curve.fq();
        int n = fq.limbs();
        for (int k = 0; k < 4; k++) {
            assertEquals(new BigInteger(expected.get(k / 2).get(k % 2).asString()), fq.toBigInteger(limbs, k * n),
                    "coordinate " + k);
        }
        assertTrue(expected.get(2).get(0).asString().equals("1"));
    }
}
