package io.proofline.witness;

import io.proofline.witness.CalculatorOptions.ExecutionMode;
import io.proofline.witness.WitnessException.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

/** Every way a computation can fail ends in a WitnessException with circom's message, never a raw trap. */
class WitnessErrorsTest {

    private static final WitnessFixture ASSERT = WitnessFixture.named("assert-bn128");
    private static final WitnessFixture ARRAYS = WitnessFixture.named("arrays-bn128");

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void failedAssertGivesCircomsMessageWithTheTemplateAndLine(ExecutionMode mode) {
        var calculator = CircomWitnessCalculator.load(ASSERT.wasm(), CalculatorOptions.defaults().withMode(mode));

        assertThatThrownBy(() -> calculator.calculate(WitnessInput.readJson(ASSERT.file("input-fails.json"))))
                .asInstanceOf(type(WitnessException.class))
                .satisfies(e -> {
                    // snarkjs: "Error: Assert Failed. Error in template Bounded_0 line: 11"
                    assertThat(e.getMessage()).isEqualTo("Assert Failed. Error in template Bounded_0 line: 11");
                    assertThat(e.reason()).isEqualTo(Reason.CIRCUIT_ERROR);
                    assertThat(e.circomErrorCode()).hasValue(4);
                    assertThat(e.log()).containsExactly("bounded: x = 12 y = 5");
                });
    }

    @Test
    void calculatorStillWorksAfterAFailedComputation() {
        var calculator = CircomWitnessCalculator.load(ASSERT.wasm());
        assertThatThrownBy(() -> calculator.calculate(Map.of("x", 99, "y", 1))).isInstanceOf(WitnessException.class);

        assertThat(calculator.calculate(WitnessInput.readJson(ASSERT.input())).values())
                .containsExactlyElementsOf(ASSERT.expectedWitness());
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void interruptingTheThreadCancelsTheComputation(ExecutionMode mode) {
        var calculator = CircomWitnessCalculator.load(ARRAYS.wasm(), CalculatorOptions.defaults().withMode(mode));
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> calculator.calculate(WitnessInput.readJson(ARRAYS.input())))
                    .isInstanceOf(WitnessException.class)
                    .extracting(e -> ((WitnessException) e).reason()).isEqualTo(Reason.INTERRUPTED);
            assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag kept").isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void unknownSignalIsNamed() {
        var calculator = CircomWitnessCalculator.load(ASSERT.wasm());

        assertThatThrownBy(() -> calculator.calculate(Map.of("x", 1, "y", 2, "w", 3)))
                .isInstanceOf(WitnessException.class)
                .hasMessage("Signal w not found: it is not an input of the circuit")
                .extracting(e -> ((WitnessException) e).reason()).isEqualTo(Reason.INVALID_INPUT);
    }

    @Test
    void unknownSignalWithNoValuesIsIgnoredAsSnarkjsDoes() {
        var calculator = CircomWitnessCalculator.load(ASSERT.wasm());

        assertThat(calculator.calculate(Map.of("x", 3, "y", 5, "w", List.of())).values())
                .containsExactlyElementsOf(ASSERT.expectedWitness());
    }

    @Test
    void missingInputIsCounted() {
        var calculator = CircomWitnessCalculator.load(ASSERT.wasm());

        assertThatThrownBy(() -> calculator.calculate(Map.of("x", 1)))
                .isInstanceOf(WitnessException.class)
                .hasMessage("Not all inputs have been set. Only 1 out of 2");
    }

    @Test
    void tooFewValuesForAnArraySignal() {
        var calculator = CircomWitnessCalculator.load(ARRAYS.wasm());

        assertThatThrownBy(() -> calculator.calculate(Map.of("a", 1, "v", List.of(1, 2), "m", List.of(List.of(1, 2, 3), List.of(4, 5, 6)))))
                .isInstanceOf(WitnessException.class)
                .hasMessage("Not enough values for input signal v: expected 3, got 2");
    }

    @Test
    void tooManyValuesForAnArraySignal() {
        var calculator = CircomWitnessCalculator.load(ARRAYS.wasm());

        assertThatThrownBy(() -> calculator.calculate(Map.of("a", List.of(1, 2))))
                .isInstanceOf(WitnessException.class)
                .hasMessage("Too many values for input signal a: expected 1, got 2");
    }

    @Test
    void nonIntegerValueIsNamed() {
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": \"12abc\", \"y\": 1}"))
                .isInstanceOf(WitnessException.class)
                .hasMessageContaining("input 'x': \"12abc\" is not an integer");
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": 1.5}"))
                .hasMessageContaining("input 'x': 1.5 is not an integer");
    }

    @Test
    void malformedJsonIsAnInputError() {
        assertThatThrownBy(() -> WitnessInput.parseJson("{\"x\": [1, 2"))
                .isInstanceOf(WitnessException.class)
                .hasMessageStartingWith("input is not valid JSON")
                .extracting(e -> ((WitnessException) e).reason()).isEqualTo(Reason.INVALID_INPUT);
    }

    @Test
    void bytesThatAreNotWasmAreRejectedAtLoad() {
        assertThatThrownBy(() -> CircomWitnessCalculator.load("not wasm".getBytes()))
                .isInstanceOf(WitnessException.class)
                .hasMessageStartingWith("not a valid WebAssembly module")
                .extracting(e -> ((WitnessException) e).reason()).isEqualTo(Reason.INVALID_MODULE);
    }

    @Test
    void wasmThatIsNotACircomCalculatorIsRejectedAtLoad() {
        // (module (func (export "f"))): valid wasm, but none of circom's exports
        byte[] wasm = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
                0x01, 0x04, 0x01, 0x60, 0x00, 0x00,
                0x03, 0x02, 0x01, 0x00,
                0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00,
                0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b};

        assertThatThrownBy(() -> CircomWitnessCalculator.load(wasm))
                .isInstanceOf(WitnessException.class)
                .hasMessageContaining("not a circom 2 witness calculator")
                .hasMessageContaining("getWitness");
    }
}
