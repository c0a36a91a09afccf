package io.proofline.witness;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link CircomWitnessCalculator} runs its circuit.
 *
 * @param mode        compile the wasm to JVM bytecode once (fast; the default) or interpret it
 *                    (no class generation, slower: for tiny circuits or environments that forbid it)
 * @param sanityCheck circom's {@code init(sanityCheck)}: the generated code checks every signal
 *                    access (slower; snarkjs's default is off)
 * @param logSink     receives each line a circuit prints with {@code log()} (they are also kept in
 *                    {@link Witness#log()} and {@link WitnessException#log()}); DEBUG logging by default
 */
public record CalculatorOptions(ExecutionMode mode, boolean sanityCheck, Consumer<String> logSink) {

    /** How the wasm is executed. */
    public enum ExecutionMode {
        /** Chicory's compiler: wasm → JVM bytecode at load, with the interpreter for any function too large for it. */
        COMPILED,
        /** Chicory's interpreter. */
        INTERPRETED
    }

    private static final Logger CIRCUIT_LOG = LoggerFactory.getLogger("io.proofline.witness.circuit");

    public CalculatorOptions {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(logSink, "logSink");
    }

    public static CalculatorOptions defaults() {
        return new CalculatorOptions(ExecutionMode.COMPILED, false, line -> CIRCUIT_LOG.debug("{}", line));
    }

    public CalculatorOptions withMode(ExecutionMode mode) {
        return new CalculatorOptions(mode, sanityCheck, logSink);
    }

    public CalculatorOptions withSanityCheck(boolean sanityCheck) {
        return new CalculatorOptions(mode, sanityCheck, logSink);
    }

    public CalculatorOptions withLogSink(Consumer<String> logSink) {
        return new CalculatorOptions(mode, sanityCheck, logSink);
    }
}
