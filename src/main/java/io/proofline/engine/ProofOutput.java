package io.proofline.engine;

import java.util.Objects;

/**
 * One partition's proof in the shapes snarkjs writes (DESIGN §7).
 *
 * @param proofJson         {@code proof.json}: {@code pi_a, pi_b, pi_c, protocol, curve}
 * @param publicSignalsJson {@code public.json}: {@code w[1..nPublic]} as decimal strings
 */
public record ProofOutput(String proofJson, String publicSignalsJson) {

    public ProofOutput {
        Objects.requireNonNull(proofJson, "proofJson");
        Objects.requireNonNull(publicSignalsJson, "publicSignalsJson");
    }
}
