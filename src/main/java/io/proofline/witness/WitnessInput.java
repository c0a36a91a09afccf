package io.proofline.witness;

import io.proofline.witness.internal.InputFlattener;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The inputs of one witness computation: qualified signal name → its values, flattened the way snarkjs
 * and circom do (row-major arrays; {@code p.x} and {@code ps[0].x} for circom 2.2 buses), in the
 * order the input gave them. Values are integers as given (possibly negative or ≥ p); the calculator
 * reduces them mod the circuit's prime, as snarkjs's {@code normalize} does.
 *
 * <p>JSON numbers are read exactly. snarkjs reads {@code input.json} with {@code JSON.parse}, which
 * rounds unquoted numbers above 2^53; such inputs are the one place where the two can differ
 * (quote large numbers, as snarkjs's documentation advises).
 */
public final class WitnessInput implements InputSource {

    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private final Map<String, List<BigInteger>> signals;

    private WitnessInput(Map<String, List<BigInteger>> signals) {
        this.signals = Collections.unmodifiableMap(signals);
    }

    /**
     * From a snarkjs-style map: values are {@link Number}s, {@link CharSequence}s (decimal or {@code 0x}
     * hex), {@link Boolean}s, nested {@link java.util.Collection}s (arrays) or nested {@link Map}s (buses).
     */
    public static WitnessInput of(Map<String, ?> input) {
        return new WitnessInput(InputFlattener.flatten(input));
    }

    /** From the text of a snarkjs {@code input.json}. */
    public static WitnessInput parseJson(String json) {
        try {
            return fromTree(JSON.readTree(json));
        } catch (JacksonException e) {
            throw notJson(e);
        }
    }

    public static WitnessInput parseJson(byte[] json) {
        try {
            return fromTree(JSON.readTree(json));
        } catch (JacksonException e) {
            throw notJson(e);
        }
    }

    public static WitnessInput parseJson(InputStream json) {
        try {
            return fromTree(JSON.readTree(json));
        } catch (JacksonException e) {
            throw notJson(e);
        }
    }

    public static WitnessInput readJson(Path file) {
        try {
            return parseJson(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Qualified signal name → values (unmodifiable, in input order). */
    public Map<String, List<BigInteger>> signals() {
        return signals;
    }

    @Override
    public void feed(FlatInput.Sink sink) {
        for (Map.Entry<String, List<BigInteger>> signal : signals.entrySet()) {
            sink.start(signal.getKey());
            for (BigInteger value : signal.getValue()) {
                sink.add(value);
            }
            sink.end();
        }
    }

    /** Total number of values over all signals. */
    public int valueCount() {
        return signals.values().stream().mapToInt(List::size).sum();
    }

    @Override
    public String toString() {
        return "WitnessInput" + signals;
    }

    private static WitnessInput fromTree(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new WitnessException(WitnessException.Reason.INVALID_INPUT,
                    "the input must be a JSON object of signal names, e.g. {\"a\": \"3\", \"v\": [1, 2]}");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> input = (Map<String, Object>) toJava(root);
        return of(input);
    }

    /** The JSON tree as plain Java values, keeping numbers exact (BigInteger / BigDecimal). */
    private static Object toJava(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                map.put(field.getKey(), toJava(field.getValue()));
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            for (JsonNode item : node.values()) {
                list.add(toJava(item));
            }
            return list;
        }
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.decimalValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isString()) {
            return node.stringValue();
        }
        return null; // JSON null: rejected with the signal's name by the flattener
    }

    private static WitnessException notJson(JacksonException e) {
        return new WitnessException(WitnessException.Reason.INVALID_INPUT,
                "input is not valid JSON: " + e.getOriginalMessage(), e);
    }
}
