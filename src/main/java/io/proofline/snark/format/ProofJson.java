package io.proofline.snark.format;

import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Path;

/**
 * snarkjs's {@code proof.json}: {@code {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16",
 * "curve": "bn128" | "bls12381"}}. rapidsnark writes the same object without {@code "curve"}; a reader that knows
 * the verification key passes its curve, which then decides (as snarkjs's verifier does, which reads the curve
 * from the key only).
 */
public final class ProofJson {

    private ProofJson() {
    }

    /** A proof file that must name its curve. */
    public static Proof read(Path path) throws IOException {
        return read(path, null);
    }

    /**
     * A proof file of snarkjs or rapidsnark.
     *
     * @param keyCurve the verification key's curve, taken when the file has no {@code "curve"}; null to require it
     */
    public static Proof read(Path path, SnarkCurve keyCurve) throws IOException {
        return fromJson(SnarkjsJson.read(path), path.getFileName().toString(), keyCurve);
    }

    /** A proof that must name its curve. */
    public static Proof parse(String json, String name) throws FormatException {
        return parse(json, name, null);
    }

    /** As {@link #read(Path, SnarkCurve)}, from text. */
    public static Proof parse(String json, String name, SnarkCurve keyCurve) throws FormatException {
        return fromJson(SnarkjsJson.parse(json, name), name, keyCurve);
    }

    public static Proof fromJson(JsonNode root, String file, SnarkCurve keyCurve) throws FormatException {
        String protocol = SnarkjsJson.member(root, "protocol", file).asString();
        if (!"groth16".equals(protocol)) {
            throw new FormatException(file, "protocol '" + SnarkjsJson.abbreviate(protocol) + "' is not groth16");
        }
        SnarkCurve curve = keyCurve != null && !root.has("curve") ? keyCurve : curve(root, file);
        return new Proof(curve,
                SnarkjsJson.g1(SnarkjsJson.member(root, "pi_a", file), curve, file, "pi_a"),
                SnarkjsJson.g2(SnarkjsJson.member(root, "pi_b", file), curve, file, "pi_b"),
                SnarkjsJson.g1(SnarkjsJson.member(root, "pi_c", file), curve, file, "pi_c"));
    }

    static SnarkCurve curve(JsonNode root, String file) throws FormatException {
        String name = SnarkjsJson.member(root, "curve", file).asString();
        return SnarkCurves.byName(name).orElseThrow(() -> new FormatException(file,
                "unknown curve '" + SnarkjsJson.abbreviate(name) + "' (supported: bn128, bls12381)"));
    }

    public static ObjectNode toJson(Proof proof) {
        ObjectNode o = SnarkjsJson.NODES.objectNode();
        o.set("pi_a", SnarkjsJson.g1Node(proof.curve(), proof.a(), 0));
        o.set("pi_b", SnarkjsJson.g2Node(proof.curve(), proof.b(), 0));
        o.set("pi_c", SnarkjsJson.g1Node(proof.curve(), proof.c(), 0));
        o.put("protocol", "groth16");
        o.put("curve", proof.curve().name());
        return o;
    }

    /** The file's text exactly as snarkjs writes it. */
    public static String toString(Proof proof) {
        return SnarkjsJson.stringify(toJson(proof));
    }

    public static void write(Proof proof, Path path) throws IOException {
        SnarkjsJson.write(toJson(proof), path);
    }
}
