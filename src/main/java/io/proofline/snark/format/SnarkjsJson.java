package io.proofline.snark.format;

import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;
import io.proofline.snark.SnarkCurve;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * snarkjs's JSON conventions: numbers as decimal strings, points as projective triples ({@code [x, y, "1"]} for
 * G1, {@code [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]} for G2, infinity {@code ["0", "1", "0"]}), and files printed
 * the way {@code JSON.stringify(value, null, 1)} prints them (one-space indent, no trailing newline), so that our
 * files are byte-for-byte snarkjs's.
 */
final class SnarkjsJson {

    /** Only reading parses; writing builds nodes and prints them itself, so a proof is written without a mapper. */
    private static final class Parser {
        /**
         * snarkjs's files hold decimal strings of at most 116 digits, a few names, four levels: far within these,
         * which keep a hostile document from becoming a large tree before it is checked.
         */
        static final ObjectMapper MAPPER = JsonMapper.builder(tools.jackson.core.json.JsonFactory.builder()
                .streamReadConstraints(tools.jackson.core.StreamReadConstraints.builder().maxDocumentLength(MAX_BYTES)
                        .maxNestingDepth(16).maxNumberLength(200).maxStringLength(4096).maxNameLength(256).build())
                .build()).build();
    }

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Longest JSON file read: a verification key with a few hundred thousand public inputs is far below this. */
    static final long MAX_BYTES = 256L << 20;

    private SnarkjsJson() {
    }

    /** Reads and parses a JSON file; unreadable JSON is a {@link FormatException} naming the file. */
    static JsonNode read(Path path) throws IOException {
        String name = path.getFileName().toString();
        if (Files.size(path) > MAX_BYTES) {
            throw new FormatException(name, "larger than " + MAX_BYTES + " bytes");
        }
        return parse(Files.readString(path, StandardCharsets.UTF_8), name);
    }

    static JsonNode parse(String json, String name) throws FormatException {
        try {
            return Parser.MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new FormatException(name, "not valid JSON: " + e.getOriginalMessage());
        }
    }

    static void write(JsonNode node, Path path) throws IOException {
        Files.writeString(path, stringify(node), StandardCharsets.UTF_8);
    }

    /** {@code JSON.stringify(node, null, 1)}. */
    static String stringify(JsonNode node) {
        StringBuilder sb = new StringBuilder();
        stringify(node, 0, sb);
        return sb.toString();
    }

    private static void stringify(JsonNode node, int depth, StringBuilder sb) {
        if (node.isObject()) {
            if (node.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                sb.append(first ? "\n" : ",\n");
                first = false;
                indent(depth + 1, sb);
                quote(e.getKey(), sb);
                sb.append(": ");
                stringify(e.getValue(), depth + 1, sb);
            }
            sb.append('\n');
            indent(depth, sb);
            sb.append('}');
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append('[');
            for (int i = 0; i < node.size(); i++) {
                sb.append(i == 0 ? "\n" : ",\n");
                indent(depth + 1, sb);
                stringify(node.get(i), depth + 1, sb);
            }
            sb.append('\n');
            indent(depth, sb);
            sb.append(']');
        } else if (node.isString()) {
            quote(node.asString(), sb);
        } else {
            sb.append(node.toString());
        }
    }

    private static void indent(int depth, StringBuilder sb) {
        sb.append(" ".repeat(depth));
    }

    private static void quote(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    // ---- reading values ------------------------------------------------------------------------------------------

    /** The member {@code key} of an object, required. */
    static JsonNode member(JsonNode obj, String key, String file) throws FormatException {
        if (obj == null || !obj.isObject()) {
            throw new FormatException(file, "expected a JSON object");
        }
        JsonNode v = obj.get(key);
        if (v == null || v.isNull()) {
            throw new FormatException(file, "'" + key + "' is missing");
        }
        return v;
    }

    /** A non-negative integer written as a decimal string (or a JSON integer), as snarkjs writes numbers. */
    static BigInteger integer(JsonNode v, String file, String where) throws FormatException {
        String s;
        if (v != null && v.isString()) {
            s = v.asString();
        } else if (v != null && v.isIntegralNumber()) {
            s = v.bigIntegerValue().toString();
        } else {
            throw new FormatException(file, where + " is not a decimal string");
        }
        if (s.isEmpty() || s.length() > 200 || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw new FormatException(file, where + " is not a non-negative decimal integer: '" + abbreviate(s) + "'");
        }
        return new BigInteger(s);
    }

    /** An element of {@code field}: a decimal integer below its modulus, as Montgomery limbs into {@code r[ro..]}. */
    static void element(JsonNode v, PrimeField field, char fieldName, long[] r, int ro, String file, String where)
            throws FormatException {
        BigInteger x = integer(v, file, where);
        if (x.compareTo(field.modulus()) >= 0) {
            throw new FormatException(file, where + " is not reduced (≥ " + fieldName + ")");
        }
        field.fromBigInteger(x, r, ro);
    }

    private static JsonNode array(JsonNode v, int size, String file, String where) throws FormatException {
        if (v == null || !v.isArray() || v.size() != size) {
            throw new FormatException(file, where + " is not an array of " + size);
        }
        return v;
    }

    /**
     * A G1 point {@code [x, y, z]} (Jacobian, as ffjavascript reads it: affine {@code (x/z², y/z³)}; z = 0 is
     * infinity) into affine Montgomery limbs, checked to be on the curve.
     */
    static long[] g1(JsonNode v, SnarkCurve curve, String file, String where) throws FormatException {
        PrimeField fq = curve.fq();
        int n = fq.limbs();
        array(v, 3, file, where);
        long[] p = new long[3 * n];
        for (int k = 0; k < 3; k++) {
            element(v.get(k), fq, 'q', p, k * n, file, where + "[" + k + "]");
        }
        long[] affine = new long[2 * n];
        if (!fq.isZero(p, 2 * n)) {
            long[] zi = fq.inv(java.util.Arrays.copyOfRange(p, 2 * n, 3 * n));
            long[] zi2 = fq.mul(zi, zi);
            long[] zi3 = fq.mul(zi2, zi);
            fq.mul(p, 0, zi2, 0, affine, 0);
            fq.mul(p, n, zi3, 0, affine, n);
        }
        String problem = new PointValidation(curve).g1Problem(affine, 0);
        if (problem != null) {
            throw new FormatException(file, where + " " + problem);
        }
        return affine;
    }

    /** A G2 point {@code [[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]}, as {@link #g1} over 𝔽q². */
    static long[] g2(JsonNode v, SnarkCurve curve, String file, String where) throws FormatException {
        PrimeField fq = curve.fq();
        int n = fq.limbs();
        int w = 2 * n;
        array(v, 3, file, where);
        long[] p = new long[3 * w];
        for (int k = 0; k < 3; k++) {
            JsonNode coord = array(v.get(k), 2, file, where + "[" + k + "]");
            for (int j = 0; j < 2; j++) {
                element(coord.get(j), fq, 'q', p, k * w + j * n, file, where + "[" + k + "][" + j + "]");
            }
        }
        long[] affine = new long[2 * w];
        QuadraticField fq2 = new QuadraticField(fq);
        if (!fq2.isZero(p, 2 * w)) {
            long[] t = new long[3 * w];
            fq2.inv(p, 2 * w, t, 0);          // 1/z
            fq2.sqr(t, 0, t, w);              // 1/z²
            fq2.mul(t, w, t, 0, t, 2 * w);    // 1/z³
            fq2.mul(p, 0, t, w, affine, 0);
            fq2.mul(p, w, t, 2 * w, affine, w);
        }
        String problem = new PointValidation(curve).g2Problem(affine, 0);
        if (problem != null) {
            throw new FormatException(file, where + " " + problem);
        }
        return affine;
    }

    // ---- writing values ------------------------------------------------------------------------------------------

    static ArrayNode g1Node(SnarkCurve curve, long[] p, int off) {
        PrimeField fq = curve.fq();
        int n = fq.limbs();
        ArrayNode a = NODES.arrayNode();
        if (fq.isZero(p, off) && fq.isZero(p, off + n)) {
            return a.add("0").add("1").add("0");
        }
        return a.add(fq.toDecimal(p, off)).add(fq.toDecimal(p, off + n)).add("1");
    }

    static ArrayNode g2Node(SnarkCurve curve, long[] p, int off) {
        PrimeField fq = curve.fq();
        int n = fq.limbs();
        ArrayNode a = NODES.arrayNode();
        boolean infinity = true;
        for (int k = 0; k < 4; k++) {
            infinity &= fq.isZero(p, off + k * n);
        }
        if (infinity) {
            a.add(NODES.arrayNode().add("0").add("0"));
            a.add(NODES.arrayNode().add("1").add("0"));
            a.add(NODES.arrayNode().add("0").add("0"));
            return a;
        }
        a.add(NODES.arrayNode().add(fq.toDecimal(p, off)).add(fq.toDecimal(p, off + n)));
        a.add(NODES.arrayNode().add(fq.toDecimal(p, off + 2 * n)).add(fq.toDecimal(p, off + 3 * n)));
        a.add(NODES.arrayNode().add("1").add("0"));
        return a;
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
