package io.proofline.web;

import io.proofline.service.InvalidFieldException;
import io.proofline.service.circuits.ProofVerifier;
import io.proofline.service.Tenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@Tag(name = "verify", description = "check a Groth16 proof")
class VerifyController {

    private final ProofVerifier verifier;

    VerifyController(ProofVerifier verifier) {
        this.verifier = verifier;
    }

    @PostMapping(value = "/api/v1/verify", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Verify a snarkjs proof against a registered circuit or a verification key")
    VerifyResponse verify(Tenant tenant, @RequestBody VerifyRequest body) {
        if (body == null) {
            throw InvalidFieldException.malformed("body", "a JSON object is required");
        }
        var result = verifier.verify(tenant, body.circuitId(), text(body.verificationKey()), text(body.proof()),
                text(body.publicSignals()));
        return new VerifyResponse(result.valid(), result.reason());
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.toString();
    }
}
