package io.proofline.web;

import io.proofline.service.InvalidFieldException;
import io.proofline.service.Tenant;
import io.proofline.service.circuits.ProofVerifier;
import io.proofline.service.config.StoreProperties;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;

/**
 * {@code POST /api/v1/verify}. The body is read once, from the bounded request stream ({@link BoundedBodyFilter}:
 * at most the size of a verification of a circuit with {@code proofline.store.max-public-signals}), within Jackson
 * read constraints of the same largest legitimate request ({@link JsonReadLimits#verify}); its three documents go to
 * the verifier as read, never printed and parsed again.
 */
@RestController
@Tag(name = "verify", description = "check a Groth16 proof")
class VerifyController {

    static final String PATH = "/api/v1/verify";

    private final ProofVerifier verifier;
    private final JsonMapper json;

    VerifyController(ProofVerifier verifier, StoreProperties store) {
        this.verifier = verifier;
        this.json = JsonReadLimits.verify(BodyLimits.of(store), store.maxPublicSignals());
    }

    @PostMapping(value = PATH, consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Verify a snarkjs proof against a registered circuit or a verification key",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = VerifyRequest.class))))
    VerifyResponse verify(Tenant tenant, HttpServletRequest request) throws IOException {
        VerifyRequest body;
        try {
            body = json.readValue(request.getInputStream(), VerifyRequest.class);
        } catch (StreamConstraintsException e) {
            throw InvalidFieldException.unprocessable("body", "the request is larger than a verification can be: "
                    + e.getOriginalMessage());
        } catch (JacksonException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof IOException io) {
                    throw io; // too large (413), too slow (408): the bounded stream's refusal
                }
            }
            throw InvalidFieldException.malformed("body", "the body is not valid JSON for this request: "
                    + e.getOriginalMessage());
        }
        if (body == null) {
            throw InvalidFieldException.malformed("body", "a JSON object is required");
        }
        var result = verifier.verify(tenant, body.circuitId(), body.verificationKey(), body.proof(),
                body.publicSignals());
        return new VerifyResponse(result.valid(), result.reason());
    }
}
