package io.proofline.witness;

import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonParser;

import java.io.ByteArrayInputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The streaming input reader against the tree flattener it replaces on the service's path ({@link WitnessInput}, a
 * Jackson tree turned into maps and lists, flattened by {@code InputFlattener}): random inputs of every shape circom
 * takes (scalars, multi-dimensional arrays, buses, arrays of buses; numbers, decimal, hex, octal, binary and negative
 * strings, booleans, exponent notation) flatten to the same signals and values in the same order; and what the tree
 * refuses, the stream refuses too, with the nesting bound the tree never had.
 */
class InputJsonReaderTest {

    private static final BigInteger P =
            new BigInteger("21888242871839275222246405745257275088548364400416034343698204186575808495617");

    @Test
    void randomInputsFlattenAsTheTreeFlattenerDoes() {
        Random random = new Random(32);
        for (int round = 0; round < 500; round++) {
            String json = randomInput(random);
            Map<String, List<BigInteger>> expected = WitnessInput.parseJson(json).signals();
            assertThat(streamed(json)).as(json).isEqualTo(expected);
            assertThat(flattenedIntoMemory(json)).as(json).isEqualTo(reduced(expected));
        }
    }

    @Test
    void refusalsNameTheSignalAndNestingIsBounded() {
        assertRefused("{\"a\":[1,{\"x\":2}]}", "input 'a' mixes bus objects and plain values in one array");
        assertRefused("{\"a\":[{\"x\":2},3]}", "input 'a' mixes bus objects and plain values in one array");
        assertRefused("{\"a\":null}", "input 'a' is null");
        assertRefused("{\"a\":[1,\"12z\"]}", "input 'a': \"12z\" is not an integer");
        assertRefused("{\"a\":1.5}", "input 'a'");
        assertRefused("{\"a\":\"" + "9".repeat(81) + "\"}", "has more than 80 decimal");
        assertRefused("{\"a\":\"0x" + "f".repeat(67) + "\"}", "has more than 80 decimal");
        assertRefused("{\"a\":1e999999999}", "has more than 80 decimal");
        assertRefused("[1,2]", "must be a JSON object");
        String deep = "{\"a\":" + "[".repeat(64) + "1" + "]".repeat(64) + "}";
        assertRefused(deep, "nested more than " + InputJsonReader.MAX_DEPTH + " levels");
        String deepBus = "{\"a\":" + "{\"b\":".repeat(40) + "1" + "}".repeat(40) + "}";
        assertRefused(deepBus, "nested more than " + InputJsonReader.MAX_DEPTH + " levels");
        // the tree flattener refuses the same inputs
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"a\":[1,{\"x\":2}]}")).isInstanceOf(WitnessException.class);
    }

    @Test
    void aFlatInputHoldsNoMoreValuesThanItsRoom() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment room = arena.allocate(4 * 32);
            InputSource source = InputJsonReader.source(() -> parser("{\"a\":[1,2,3],\"b\":[4,5]}"));
            assertThatThrownBy(() -> FlatInput.read(source, room, 32, 4, 4, P))
                    .isInstanceOf(WitnessException.class).hasMessageContaining("more values than")
                    .hasMessageContaining("input 'b'");
            FlatInput fits = FlatInput.read(InputJsonReader.source(() -> parser("{\"a\":[1,-1],\"b\":[]}")), room,
                    32, 4, 1, P);
            assertThat(fits.size()).isEqualTo(2);
            assertThat(fits.value(1)).isEqualTo(P.subtract(BigInteger.ONE));
            assertThat(fits.signals()).containsExactly(new FlatInput.Signal("a", 0, 2), new FlatInput.Signal("b", 2, 0));
            // names cost heap: past the circuit's inputs (and the slack circom needs to name a wrong one), refused
            StringBuilder names = new StringBuilder("{");
            for (int i = 0; i < FlatInput.EXTRA_SIGNALS + 2; i++) {
                names.append(i == 0 ? "" : ",").append("\"s").append(i).append("\":1");
            }
            String many = names.append('}').toString();
            MemorySegment large = arena.allocate((FlatInput.EXTRA_SIGNALS + 2) * 32L);
            assertThatThrownBy(() -> FlatInput.read(InputJsonReader.source(() -> parser(many)), large, 32,
                    FlatInput.EXTRA_SIGNALS + 2, 1, P)).isInstanceOf(WitnessException.class)
                    .hasMessageContaining("more signals than the circuit has inputs");
        }
    }

    private static void assertRefused(String json, String message) {
        assertThatThrownBy(() -> streamed(json)).as(json).isInstanceOf(WitnessException.class)
                .hasMessageContaining(message);
    }

    private static JsonParser parser(String json) {
        return InputJsonReader.parser(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    /** The signals as the streaming reader hands them on. */
    private static Map<String, List<BigInteger>> streamed(String json) {
        Map<String, List<BigInteger>> out = new LinkedHashMap<>();
        try (JsonParser p = parser(json)) {
            InputJsonReader.read(p, new InputJsonReader.Sink() {
                private List<BigInteger> values;

                @Override
                public void start(String signal) {
                    values = new ArrayList<>();
                    out.put(signal, values);
                }

                @Override
                public void value(String signal, JsonParser parser) {
                    values.add(InputJsonReader.value(signal, parser));
                }

                @Override
                public void end(String signal, long count) {
                    assertThat(count).isEqualTo(values.size());
                }
            });
        }
        return out;
    }

    /** The values as a computation gets them: flattened off the heap, reduced mod p. */
    private static Map<String, List<BigInteger>> flattenedIntoMemory(String json) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment room = arena.allocate(4096 * 32L);
            FlatInput flat = FlatInput.read(InputJsonReader.source(() -> parser(json)), room, 32, 4096, 4096, P);
            Map<String, List<BigInteger>> out = new LinkedHashMap<>();
            for (FlatInput.Signal s : flat.signals()) {
                List<BigInteger> values = new ArrayList<>();
                for (int i = 0; i < s.count(); i++) {
                    values.add(flat.value(s.offset() + i));
                }
                out.put(s.name(), values);
            }
            return out;
        }
    }

    private static Map<String, List<BigInteger>> reduced(Map<String, List<BigInteger>> signals) {
        Map<String, List<BigInteger>> out = new LinkedHashMap<>();
        signals.forEach((k, v) -> out.put(k, v.stream().map(x -> x.mod(P)).toList()));
        return out;
    }

    private static String randomInput(Random random) {
        StringBuilder json = new StringBuilder("{");
        int signals = 1 + random.nextInt(5);
        for (int i = 0; i < signals; i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append("\"s").append(i).append("\":");
            switch (random.nextInt(4)) {
                case 0 -> value(random, json);
                case 1 -> valueArray(random, json, 1 + random.nextInt(3));
                case 2 -> bus(random, json, 2);
                default -> busArray(random, json, 1 + random.nextInt(2), 1);
            }
        }
        return json.append('}').toString();
    }

    private static void valueArray(Random random, StringBuilder json, int dims) {
        json.append('[');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                json.append(',');
            }
            if (dims > 1) {
                valueArray(random, json, dims - 1);
            } else {
                value(random, json);
            }
        }
        json.append(']');
    }

    private static void busArray(Random random, StringBuilder json, int dims, int depth) {
        json.append('[');
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                json.append(',');
            }
            if (dims > 1) {
                busArray(random, json, dims - 1, depth);
            } else {
                bus(random, json, depth);
            }
        }
        json.append(']');
    }

    private static void bus(Random random, StringBuilder json, int depth) {
        json.append('{');
        int fields = 1 + random.nextInt(3);
        for (int i = 0; i < fields; i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append("\"f").append(i).append("\":");
            int kind = random.nextInt(depth > 0 ? 4 : 2);
            switch (kind) {
                case 0 -> value(random, json);
                case 1 -> valueArray(random, json, 1 + random.nextInt(2));
                case 2 -> bus(random, json, depth - 1);
                default -> busArray(random, json, 1, depth - 1);
            }
        }
        json.append('}');
    }

    private static void value(Random random, StringBuilder json) {
        BigInteger v = new BigInteger(1 + random.nextInt(260), random);
        boolean negative = random.nextInt(4) == 0;
        String signed = (negative ? "-" : "");
        switch (random.nextInt(8)) {
            case 0 -> json.append(signed).append(v);
            case 1 -> json.append('"').append(signed).append(v).append('"');
            case 2 -> json.append('"').append(signed).append("0x").append(v.toString(16)).append('"');
            case 3 -> json.append('"').append("0o").append(v.mod(BigInteger.TWO.pow(60)).toString(8)).append('"');
            case 4 -> json.append('"').append("0b").append(v.mod(BigInteger.TWO.pow(60)).toString(2)).append('"');
            case 5 -> json.append(random.nextBoolean());
            case 6 -> json.append(random.nextInt(1000)).append("e").append(random.nextInt(20));
            default -> json.append(signed).append(random.nextInt(100));
        }
    }
}
