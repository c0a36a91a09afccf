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
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.math.BigInteger;

/**
 * {@code POST /api/v1/verify}: the pairing check of a snarkjs or rapidsnark proof against a circuit's or a given key;
 * a proof without {@code "curve"} (rapidsnark's) is read on the key's curve.
 */
@Service
public class ProofVerifier {

    /** The documents given as text (the CLI's and tests' path); the REST request's are read by its controller. */
    private static final JsonMapper TEXT = JsonMapper.builder().build();

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
        return verify(tenant, circuitId,
                verificationKeyJson == null ? null : tree("verificationKey", verificationKeyJson),
                proofJson == null ? null : tree("proof", proofJson),
                publicSignalsJson == null ? null : tree("publicSignals", publicSignalsJson));
    }

    /**
     * As {@link #verify(Tenant, String, String, String, String)}, for documents the caller has already read (the
     * REST request's, each read once from the bounded body, never printed and parsed again); a JSON null is absent.
     */
    public VerificationResult verify(Tenant tenant, String circuitId, JsonNode verificationKey, JsonNode proof,
                                     JsonNode publicSignals) {
        PreparedVerifyingKey pvk;
        if (circuitId != null) {
            pvk = keys.verifyingKey(circuits.get(tenant, circuitId).id());
        } else if (present(verificationKey)) {
            VerifyingKey vk = parse("verificationKey", () -> VerificationKeyJson.fromJson(verificationKey,
                    "verificationKey"));
            pvk = PreparedVerifyingKey.prepare(vk);
        } else {
            throw InvalidFieldException.malformed("circuitId", "give circuitId or verificationKey");
        }
        if (!present(proof)) {
            throw InvalidFieldException.malformed("proof", "proof is required");
        }
        if (!present(publicSignals)) {
            throw InvalidFieldException.malformed("publicSignals", "publicSignals is required");
        }
        SnarkCurve keyCurve = pvk.vk().curve();
        Proof parsed = parse("proof", () -> ProofJson.fromJson(proof, "proof", keyCurve));
        BigInteger[] signals = parse("publicSignals", () -> PublicSignalsJson.fromJson(publicSignals, "publicSignals"));
        if (parsed.curve() != pvk.vk().curve()) {
            return VerificationResult.invalid("the proof is over " + parsed.curve() + ", the key over "
                    + pvk.vk().curve());
        }
        return Groth16Verifier.verify(pvk, signals, parsed);
    }

    private static boolean present(JsonNode node) {
        return node != null && !node.isNull() && !node.isMissingNode();
    }

    private static JsonNode tree(String field, String json) {
        try {
            return TEXT.readTree(json);
        } catch (JacksonException e) {
            throw InvalidFieldException.unprocessable(field, field + ": not valid JSON: " + e.getOriginalMessage());
        }
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
