package io.proofline.web;

import io.proofline.service.jobs.JobService;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.databind.annotation.JsonDeserialize;

import java.util.List;

/** {@code POST /api/v1/jobs} as JSON. */
record JobSubmission(
        @Schema(description = "the circuit's id (its zkey's SHA-256)", requiredMode = Schema.RequiredMode.REQUIRED)
        String circuitId,
        @Schema(description = "LOW, NORMAL (default), HIGH or CRITICAL") String priority,
        @Schema(description = "makes submission idempotent: the same requestId answers the same job") String requestId,
        @Schema(description = "verify each proof before reporting it; default: proofline.verify-proofs") Boolean verify,
        @Schema(description = "the job fails if it has not finished this many seconds after it was accepted; at most "
                + "proofline.pipeline.max-deadline; default: none") Long deadlineSeconds,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) List<Partition> partitions) {

    /**
     * One partition: exactly one of a base64 {@code .wtns} or a circuit input object. The witness is decoded by the
     * parser as it reads the request, into a staged file ({@link Base64Witness}): as a string it took several times
     * the witness's size on the heap (the parser's characters, the string, the decoded bytes). The input is streamed
     * into a staged file the same way ({@link StagedInput}), never a tree.
     */
    record Partition(@Schema(description = "a snarkjs/circom .wtns file, base64", type = "string", format = "byte")
                     @JsonDeserialize(using = Base64Witness.class) JobService.NewPartition witness,
                     @Schema(description = "input.json for the circuit's witness calculator (needs its wasm)",
                             type = "object") @JsonDeserialize(using = StagedInput.class) JobService.NewPartition input) {
    }
}
