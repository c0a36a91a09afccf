package io.proofline.web.multipart;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/**
 * {@code POST /api/v1/jobs} as {@code multipart/form-data}, for the API description only: the body is read part by
 * part from the request by {@link io.proofline.web.JobSubmissionReader}, never bound to this.
 */
public record MultipartJobSubmission(
        @Schema(description = "the circuit's id (its zkey's SHA-256)", requiredMode = Schema.RequiredMode.REQUIRED)
        String circuitId,
        @ArraySchema(schema = @Schema(description = "one snarkjs/circom .wtns file per partition, in order",
                type = "string", format = "binary"), minItems = 1, maxItems = 1024) List<String> witness,
        @Schema(description = "LOW, NORMAL (default), HIGH or CRITICAL") String priority,
        @Schema(description = "makes submission idempotent: the same requestId answers the same job") String requestId,
        @Schema(description = "true or false: verify each proof before reporting it") Boolean verify) {
}
