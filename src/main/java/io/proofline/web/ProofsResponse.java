package io.proofline.web;

import tools.jackson.databind.JsonNode;

import java.util.List;

/** {@code GET /api/v1/jobs/{id}/proof}: one proof per partition, in snarkjs's shapes. */
record ProofsResponse(List<PartitionProof> proofs) {

    /** snarkjs {@code proof.json} and {@code public.json}. */
    record PartitionProof(JsonNode proof, JsonNode publicSignals) {
    }
}
