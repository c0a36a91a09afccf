package io.proofline.snark.format;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.VerifyingKey;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Path;

/**
 * snarkjs's Groth16 {@code verification_key.json}: {@code protocol, curve, nPublic, vk_alpha_1, vk_beta_2,
 * vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC}. {@code vk_alphabeta_12} is the pairing e([α]₁, [β]₂) ∈ 𝔽q¹²,
 * printed as {@code [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]]} of 𝔽q² pairs (𝔽q¹² = 𝔽q⁶[w]/(w² − v),
 * 𝔽q⁶ = 𝔽q²[v]/(v³ − ξ)) in the normalisation of {@code Pairing} (which equals snarkjs's);
 * it is only written (the verifier recomputes what it needs from α and β).
 */
public final class VerificationKeyJson {

    /** Largest nPublic accepted from a JSON file (bounds the IC array before it is allocated). */
    private static final int MAX_PUBLIC = 1 << 24;

    private VerificationKeyJson() {
    }

    public static VerifyingKey read(Path path) throws IOException {
        return fromJson(SnarkjsJson.read(path), path.getFileName().toString());
    }

    public static VerifyingKey parse(String json, String name) throws FormatException {
        return fromJson(SnarkjsJson.parse(json, name), name);
    }

    public static VerifyingKey fromJson(JsonNode root, String file) throws FormatException {
        String protocol = SnarkjsJson.member(root, "protocol", file).asString();
        if (!"groth16".equals(protocol)) {
            throw new FormatException(file, "protocol '" + SnarkjsJson.abbreviate(protocol) + "' is not groth16");
        }
        SnarkCurve curve = ProofJson.curve(root, file);
        JsonNode n = SnarkjsJson.member(root, "nPublic", file);
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.intValue() < 0 || n.intValue() > MAX_PUBLIC) {
            throw new FormatException(file, "nPublic is not an integer from 0 to " + MAX_PUBLIC);
        }
        int nPublic = n.intValue();
        JsonNode icNode = SnarkjsJson.member(root, "IC", file);
        if (!icNode.isArray() || icNode.size() != nPublic + 1) {
            throw new FormatException(file, "IC has " + (icNode.isArray() ? icNode.size() : 0)
                    + " points but nPublic + 1 = " + (nPublic + 1));
        }
        int g1 = 2 * curve.fq().limbs();
        long[] ic = new long[(nPublic + 1) * g1];
        for (int i = 0; i <= nPublic; i++) {
            System.arraycopy(SnarkjsJson.g1(icNode.get(i), curve, file, "IC[" + i + "]"), 0, ic, i * g1, g1);
        }
        return new VerifyingKey(curve, nPublic,
                SnarkjsJson.g1(SnarkjsJson.member(root, "vk_alpha_1", file), curve, file, "vk_alpha_1"),
                SnarkjsJson.g2(SnarkjsJson.member(root, "vk_beta_2", file), curve, file, "vk_beta_2"),
                SnarkjsJson.g2(SnarkjsJson.member(root, "vk_gamma_2", file), curve, file, "vk_gamma_2"),
                SnarkjsJson.g2(SnarkjsJson.member(root, "vk_delta_2", file), curve, file, "vk_delta_2"),
                ic);
    }

    /**
     * The JSON tree snarkjs writes for {@code vk}.
     *
     * @param alphaBeta the reduced pairing e([α]₁, [β]₂) (as {@code Pairing} and {@code PreparedVerifyingKey}
     *                  compute it, in snarkjs's normalisation), 12 𝔽q elements in Montgomery limbs in tower order
     */
    public static ObjectNode toJson(VerifyingKey vk, long[] alphaBeta) {
        SnarkCurve curve = vk.curve();
        ObjectNode o = SnarkjsJson.NODES.objectNode();
        o.put("protocol", "groth16");
        o.put("curve", curve.name());
        o.put("nPublic", vk.nPublic());
        o.set("vk_alpha_1", SnarkjsJson.g1Node(curve, vk.alpha1(), 0));
        o.set("vk_beta_2", SnarkjsJson.g2Node(curve, vk.beta2(), 0));
        o.set("vk_gamma_2", SnarkjsJson.g2Node(curve, vk.gamma2(), 0));
        o.set("vk_delta_2", SnarkjsJson.g2Node(curve, vk.delta2(), 0));
        o.set("vk_alphabeta_12", fq12Node(curve.fq(), alphaBeta));
        ArrayNode ic = SnarkjsJson.NODES.arrayNode();
        long[] points = vk.ic();
        for (int i = 0; i <= vk.nPublic(); i++) {
            ic.add(SnarkjsJson.g1Node(curve, points, i * 2 * curve.fq().limbs()));
        }
        o.set("IC", ic);
        return o;
    }

    /** {@link #toJson(VerifyingKey, long[])} with e([α]₁, [β]₂) computed here (one pairing). */
    public static ObjectNode toJson(VerifyingKey vk) {
        return toJson(vk, vk.curve().newPairing().pair(vk.alpha1(), 0, vk.beta2(), 0));
    }

    /** The file's text exactly as {@code snarkjs zkey export verificationkey} writes it. */
    public static String toString(VerifyingKey vk) {
        return SnarkjsJson.stringify(toJson(vk));
    }

    public static void write(VerifyingKey vk, Path path) throws IOException {
        SnarkjsJson.write(toJson(vk), path);
    }

    public static String toString(VerifyingKey vk, long[] alphaBeta) {
        return SnarkjsJson.stringify(toJson(vk, alphaBeta));
    }

    public static void write(VerifyingKey vk, long[] alphaBeta, Path path) throws IOException {
        SnarkjsJson.write(toJson(vk, alphaBeta), path);
    }

    private static ArrayNode fq12Node(PrimeField fq, long[] f) {
        int n = fq.limbs();
        if (f.length != 12 * n) {
            throw new IllegalArgumentException("an 𝔽q¹² element has " + 12 * n + " limbs, got " + f.length);
        }
        ArrayNode fq12 = SnarkjsJson.NODES.arrayNode();
        for (int half = 0; half < 2; half++) {
            ArrayNode fq6 = SnarkjsJson.NODES.arrayNode();
            for (int k = 0; k < 3; k++) {
                int off = (half * 6 + k * 2) * n;
                fq6.add(SnarkjsJson.NODES.arrayNode().add(fq.toDecimal(f, off)).add(fq.toDecimal(f, off + n)));
            }
            fq12.add(fq6);
        }
        return fq12;
    }
}
