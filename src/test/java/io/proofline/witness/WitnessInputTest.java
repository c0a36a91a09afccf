package io.proofline.witness;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class WitnessInputTest {

    private static List<BigInteger> ints(long... values) {
        return java.util.Arrays.stream(values).mapToObj(BigInteger::valueOf).toList();
    }

    @Test
    void flattensNestedArraysRowMajorInInputOrder() {
        WitnessInput input = WitnessInput.parseJson("{\"b\": 1, \"m\": [[1, 2, 3], [4, 5, 6]], \"a\": [[[7]], [[8]]]}");

        assertThat(input.signals().keySet()).containsExactly("b", "m", "a");
        assertThat(input.signals().get("m")).isEqualTo(ints(1, 2, 3, 4, 5, 6));
        assertThat(input.signals().get("a")).isEqualTo(ints(7, 8));
        assertThat(input.valueCount()).isEqualTo(9);
    }

    @Test
    void readsDecimalHexNegativeAndBooleanValues() {
        WitnessInput input = WitnessInput.parseJson(
                "{\"v\": [\"0x1F\", \"-7\", -3, \" 42 \", true, false, \"0b101\", \"0o17\", \"+5\"]}");

        assertThat(input.signals().get("v")).isEqualTo(ints(31, -7, -3, 42, 1, 0, 5, 15, 5));
    }

    @Test
    void keepsLargeUnquotedNumbersExact() {
        String big = "21888242871839275222246405745257275088548364400416034343698204186575808495616";
        WitnessInput input = WitnessInput.parseJson("{\"x\": " + big + ", \"y\": 1e3}");

        assertThat(input.signals().get("x")).containsExactly(new BigInteger(big));
        assertThat(input.signals().get("y")).containsExactly(BigInteger.valueOf(1000));
    }

    @Test
    void qualifiesBusInputsAsCircomDoes() {
        WitnessInput input = WitnessInput.parseJson(
                "{\"p\": {\"x\": 1, \"y\": 2}, \"ps\": [{\"x\": 3, \"y\": 4}, {\"x\": 5, \"y\": 6}], \"g\": [[{\"q\": 7}]]}");

        assertThat(input.signals()).containsExactly(
                Map.entry("p.x", ints(1)), Map.entry("p.y", ints(2)),
                Map.entry("ps[0].x", ints(3)), Map.entry("ps[0].y", ints(4)),
                Map.entry("ps[1].x", ints(5)), Map.entry("ps[1].y", ints(6)),
                Map.entry("g[0][0].q", ints(7)));
    }

    @Test
    void fromAJavaMap() {
        WitnessInput input = WitnessInput.of(Map.of("x", List.of(BigInteger.TEN, 3L, "0x2")));

        assertThat(input.signals().get("x")).isEqualTo(ints(10, 3, 2));
    }

    @Test
    void emptyArrayIsASignalWithNoValues() {
        assertThat(WitnessInput.parseJson("{\"e\": []}").signals().get("e")).isEmpty();
    }

    @Test
    void rejectsWhatIsNotAnInteger() {
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": null}")).hasMessageContaining("input 'x' is null");
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": \"\"}")).hasMessageContaining("input 'x': \"\" is not an integer");
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": \"0x\"}")).hasMessageContaining("is not an integer");
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": \"--1\"}")).hasMessageContaining("is not an integer");
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": [1, {\"y\": 2}]}")).hasMessageContaining("mixes bus objects and plain values");
        assertThatThrownBy(() -> WitnessInput.parseJson("[1, 2]")).hasMessageContaining("must be a JSON object");
    }

    @Test
    void boundsTheDigitsOfEveryValueAt80DecimalAnd66Hex() {
        String d80 = "9".repeat(80);
        String h66 = "f".repeat(66);
        WitnessInput ok = WitnessInput.parseJson("{\"d\": \"-" + d80 + "\", \"h\": \"0x" + h66 + "\", \"n\": " + d80 + "}");
        assertThat(ok.signals().get("d")).containsExactly(new BigInteger("-" + d80));
        assertThat(ok.signals().get("h")).containsExactly(new BigInteger(h66, 16));
        assertThat(ok.signals().get("n")).containsExactly(new BigInteger(d80));
        for (String tooLong : List.of("\"" + d80 + "1\"", "\"0x" + h66 + "f\"", d80 + "1", "\"0b" + "1".repeat(268) + "\"")) {
            assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": [1, " + tooLong + "]}"))
                    .isInstanceOf(WitnessException.class)
                    .hasMessage("input 'x' has more than 80 decimal (66 hex) digits; a field element has at most 78");
        }
    }

    @Test
    void hugeNumbersAreRefusedWithoutBeingRead() {
        String million = "{\"x\": \"" + "7".repeat(1_000_000) + "\"}";
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> {
            assertThatThrownBy(() -> WitnessInput.parseJson(million)).hasMessageContaining("more than 80 decimal");
            assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": 1e999999999}")).hasMessageContaining("more than 80 decimal");
            assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": 1e-999999999}")).hasMessageContaining("is not an integer");
            assertThatThrownBy(() -> WitnessInput.of(Map.of("x", new BigDecimal("1e999999999")))).hasMessageContaining("more than 80");
        });
        assertThat(WitnessInput.parseJson("{\"x\": 1.5e3, \"y\": 12e77}").signals())
                .containsEntry("x", List.of(BigInteger.valueOf(1500)))
                .containsEntry("y", List.of(BigInteger.valueOf(12).multiply(BigInteger.TEN.pow(77))));
    }
}
