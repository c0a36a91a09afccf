package io.proofline.web.multipart;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * {@code POST /api/v1/circuits} as {@code multipart/form-data}, for the API description only: the body is read part
 * by part from the request by {@link CircuitUploadReader}, never bound to this.
 */
public record MultipartCircuitRegistration(
        @Schema(description = "the snarkjs .zkey", type = "string", format = "binary",
                requiredMode = Schema.RequiredMode.REQUIRED) String zkey,
        @Schema(description = "the circom witness calculator (.wasm): enables input partitions", type = "string",
                format = "binary") String wasm,
        @Schema(description = "the circuit's .r1cs: enables the constraint check", type = "string", format = "binary")
        String r1cs,
        @Schema(description = "a name to show") String name) {
}
