package io.proofline.snark.format;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;

/**
 * snarkjs's {@code public.json}: the public signals {@code w[1..nPublic]} as an array of decimal strings. Values
 * are read as non-negative integers; whether they are below r is the verifier's question (it rejects them).
 */
public final class PublicSignalsJson {

    private PublicSignalsJson() {
    }

    public static BigInteger[] read(Path path) throws IOException {
        return fromJson(SnarkjsJson.read(path), path.getFileName().toString());
    }

    public static BigInteger[] parse(String json, String name) throws FormatException {
        return fromJson(SnarkjsJson.parse(json, name), name);
    }

    public static BigInteger[] fromJson(JsonNode root, String file) throws FormatException {
        if (root == null || !root.isArray()) {
            throw new FormatException(file, "expected a JSON array of decimal strings");
        }
        BigInteger[] r = new BigInteger[root.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = SnarkjsJson.integer(root.get(i), file, "signal " + i);
        }
        return r;
    }

    public static ArrayNode toJson(BigInteger[] signals) {
        ArrayNode a = SnarkjsJson.NODES.arrayNode();
        for (BigInteger s : signals) {
            a.add(s.toString());
        }
        return a;
    }

    public static String toString(BigInteger[] signals) {
        return SnarkjsJson.stringify(toJson(signals));
    }

    public static void write(BigInteger[] signals, Path path) throws IOException {
        SnarkjsJson.write(toJson(signals), path);
    }
}
