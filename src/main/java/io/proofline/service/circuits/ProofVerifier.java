package io.proofline.service.circuits;

import io.proofline.service.InvalidFieldException;
import io.proofline.service.Tenant;
import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.snark.verifier.VerificationResult;
import org.springframework.stereotype.Service;

import java.math.BigInteger;

/**
 * {@code POST /api/v1/verify}: the pairing check of a snarkjs or rapidsnark proof against a circuit's or a given key;
 * a proof without {@code "curve"} (rapidsnark's) is read on the key's curve.
 */
@Service
public class ProofVerifier {

    private final CircuitService circuits;
    private final KeyCache keys;

    ProofVerifier(CircuitService circuits, KeyCache keys) {
        this.circuits = circuits;
        this.keys = keys;
    }

    /**
     * @param tenant              who asks: a circuit is looked up among those it may use
     * @param circuitId           a registered circuit, or null
     * @param verificationKeyJson snarkjs {@code verification_key.json}, used when {@code circuitId} is null
     */
    public VerificationResult verify(Tenant tenant, String circuitId, String verificationKeyJson, String proofJson,
                                     String publicSignalsJson) {
        PreparedVerifyingKey pvk;
        if (circuitId != null) {
            pvk = keys.verifyingKey(circuits.get(tenant, circuitId).id());
        } else if (verificationKeyJson != null) {
            VerifyingKey vk = parse("verificationKey", () -> VerificationKeyJson.parse(verificationKeyJson, "verificationKey"));
            pvk = PreparedVerifyingKey.prepare(vk);
        } else {
            throw InvalidFieldException.malformed("circuitId", "give circuitId or verificationKey");
        }
        if (proofJson == null) {
            throw InvalidFieldException.malformed("proof", "proof is required");
        }
        if (publicSignalsJson == null) {
            throw InvalidFieldException.malformed("publicSignals", "publicSignals is required");
        }
        SnarkCurve keyCurve = pvk.vk().curve();
        Proof proof = parse("proof", () -> ProofJson.parse(proofJson, "proof", keyCurve));
        BigInteger[] signals = parse("publicSignals", () -> PublicSignalsJson.parse(publicSignalsJson, "publicSignals"));
        if (proof.curve() != pvk.vk().curve()) {
            return VerificationResult.invalid("the proof is over " + proof.curve() + ", the key over " + pvk.vk().curve());
        }
        return Groth16Verifier.verify(pvk, signals, proof);
    }

    private interface Parse<T> {
        T run() throws FormatException;
    }

    private static <T> T parse(String field, Parse<T> parse) {
        try {
            return parse.run();
        } catch (FormatException e) {
            throw InvalidFieldException.unprocessable(field, e.getMessage());
        } catch (RuntimeException e) {
            throw InvalidFieldException.unprocessable(field, "cannot read " + field + ": " + e.getMessage());
        }
    }
}
