package io.proofline.web;

import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.JsonNode;

/** {@code POST /api/v1/verify}: a registered circuit's id or a snarkjs verification key, a proof, its signals. */
record VerifyRequest(@Schema(description = "a registered circuit (or give verificationKey)") String circuitId,
                     @Schema(description = "snarkjs verification_key.json") JsonNode verificationKey,
                     @Schema(description = "snarkjs proof.json", requiredMode = Schema.RequiredMode.REQUIRED)
                     JsonNode proof,
                     @Schema(description = "snarkjs public.json", requiredMode = Schema.RequiredMode.REQUIRED)
                     JsonNode publicSignals) {
}
