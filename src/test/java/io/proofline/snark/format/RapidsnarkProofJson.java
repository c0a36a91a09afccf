package io.proofline.snark.format;

import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A snarkjs {@code proof.json} rewritten as rapidsnark's prover writes it ({@code Proof::toJsonStr} in rapidsnark's
 * {@code groth16.cpp}): the same points on one line, {@code "protocol"} but no {@code "curve"}.
 */
public final class RapidsnarkProofJson {

    private RapidsnarkProofJson() {
    }

    public static String of(Path snarkjsProof) throws IOException {
        JsonNode p = SnarkjsFixtures.JSON.readTree(Files.readString(snarkjsProof));
        JsonNode a = p.get("pi_a");
        JsonNode b = p.get("pi_b");
        JsonNode c = p.get("pi_c");
        return "{ \"pi_a\":[\"" + a.get(0).asString() + "\",\"" + a.get(1).asString() + "\",\"1\"], "
                + " \"pi_b\": [[\"" + b.get(0).get(0).asString() + "\",\"" + b.get(0).get(1).asString() + "\"],[\""
                + b.get(1).get(0).asString() + "\",\"" + b.get(1).get(1).asString() + "\"], [\"1\",\"0\"]], "
                + " \"pi_c\": [\"" + c.get(0).asString() + "\",\"" + c.get(1).asString() + "\",\"1\"], "
                + " \"protocol\":\"groth16\" }";
    }
}
