package io.proofline.service.jobs;

/** One partition's proof as stored: snarkjs {@code proof.json} and {@code public.json} texts. */
public record StoredProof(int index, String proofJson, String publicSignalsJson) {
}
