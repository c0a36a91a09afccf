package io.proofline.snark.verifier;

import io.proofline.algebra.curve.CurveOps;
import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Groth16VerifierTest {

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    private static Path file(SnarkCurve curve, String name) {
        return Path.of("src/test/resources/snarkjs/mul3").resolve(curve.name()).resolve(name);
    }

    @ParameterizedTest
    @MethodSource("curves")
    void acceptsSnarkjsReferenceProof(SnarkCurve curve) throws Exception {
        VerifyingKey vk = VerificationKeyJson.read(file(curve, "verification_key.json"));
        VerificationResult result = Groth16Verifier.verify(vk, PublicSignalsJson.read(file(curve, "public.json")),
                ProofJson.read(file(curve, "proof.json")));
        assertTrue(result.valid(), result.reason());
    }

    @ParameterizedTest
    @MethodSource("curves")
    void rejectsEachTamperedProofPointAndTamperedSignal(SnarkCurve curve) throws Exception {
        VerifyingKey vk = VerificationKeyJson.read(file(curve, "verification_key.json"));
        PreparedVerifyingKey pvk = PreparedVerifyingKey.prepare(vk);
        BigInteger[] signals = PublicSignalsJson.read(file(curve, "public.json"));
        Proof proof = ProofJson.read(file(curve, "proof.json"));
        CurveOps g1 = curve.g1().newOps();
        CurveOps g2 = curve.g2().newOps();
        // Tampering keeps the points valid group elements (doubling), so only the pairing check can catch it.
        long[] a2 = g1.addAffine(proof.a(), proof.a());
        long[] b2 = g2.addAffine(proof.b(), proof.b());
        long[] c2 = g1.addAffine(proof.c(), proof.c());
        assertFalse(Groth16Verifier.verify(pvk, signals, new Proof(curve, a2, proof.b(), proof.c())).valid(), "pi_a");
        assertFalse(Groth16Verifier.verify(pvk, signals, new Proof(curve, proof.a(), b2, proof.c())).valid(), "pi_b");
        assertFalse(Groth16Verifier.verify(pvk, signals, new Proof(curve, proof.a(), proof.b(), c2)).valid(), "pi_c");
        for (int i = 0; i < signals.length; i++) {
            BigInteger[] tampered = signals.clone();
            tampered[i] = tampered[i].add(BigInteger.ONE);
            assertFalse(Groth16Verifier.verify(pvk, tampered, proof).valid(), "signal " + i);
        }
        assertTrue(Groth16Verifier.verify(pvk, signals, proof).valid(), "the untampered proof still verifies");
    }

    @ParameterizedTest
    @MethodSource("curves")
    void rejectsPublicSignalsNotBelowR(SnarkCurve curve) throws Exception {
        VerifyingKey vk = VerificationKeyJson.read(file(curve, "verification_key.json"));
        BigInteger[] signals = PublicSignalsJson.read(file(curve, "public.json"));
        Proof proof = ProofJson.read(file(curve, "proof.json"));
        // signal + r is the same residue: a verifier reducing mod r would accept it; snarkjs and we must not.
        BigInteger[] aliased = signals.clone();
        aliased[1] = aliased[1].add(curve.fr().modulus());
        VerificationResult result = Groth16Verifier.verify(vk, aliased, proof);
        assertFalse(result.valid());
        assertTrue(result.reason().contains("≥ r"), result.reason());
        assertThrows(IllegalArgumentException.class,
                () -> Groth16Verifier.prepareInputs(PreparedVerifyingKey.prepare(vk), aliased));
    }

    @ParameterizedTest
    @MethodSource("curves")
    void rejectsWrongNumberOfSignals(SnarkCurve curve) throws Exception {
        VerifyingKey vk = VerificationKeyJson.read(file(curve, "verification_key.json"));
        Proof proof = ProofJson.read(file(curve, "proof.json"));
        VerificationResult result = Groth16Verifier.verify(vk, new BigInteger[] {BigInteger.ONE}, proof);
        assertFalse(result.valid());
        assertEquals("1 public signals given, the key expects 2", result.reason());
    }
}
