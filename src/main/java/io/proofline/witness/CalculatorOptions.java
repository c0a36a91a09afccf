package io.proofline.witness;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link CircomWitnessCalculator} runs its circuit.
 *
 * @param mode        compile the wasm to JVM bytecode once (the default: for a calculator that is
 *                    loaded once and used many times, as the service's circuit registry does) or
 *                    interpret it (for a one-shot computation such as the CLI's {@code fullprove}).
 *                    Measured on circomlib's Poseidon(2) (1.7 MB wasm, 2 shared cores): compiling takes
 *                    ~7 s and a computation ~60 ms; interpreted, loading ~1.5 s and a computation
 *                    0.3-2 s (faster as the JIT warms up)
 * @param sanityCheck circom's {@code init(sanityCheck)}: the generated code checks every signal
 *                    access (slower; snarkjs's default is off)
 * @param logSink     receives each line a circuit prints with {@code log()} (they are also kept in
 *                    {@link CircomWitness#log()} and {@link WitnessException#log()}); DEBUG logging by default
 * @param limits      the sandbox: time, memory and log bounds ({@link WitnessLimits#defaults()} by default, for wasm
 *                    from anyone; the CLI, running one's own circuit, lifts them)
 * @param graph       record the circuit's witness graph on the first computation and compute with it (the default);
 *                    off, the wasm computes every witness (the peer {@code bench witness} measures the graph against)
 * @param graphMemory where the graph's program lives ({@link GraphMemory#unaccounted()} by default; the service's
 *                    comes from its memory budget)
 */
public record CalculatorOptions(ExecutionMode mode, boolean sanityCheck, Consumer<String> logSink,
                                WitnessLimits limits, boolean graph, GraphMemory graphMemory) {

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
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(graphMemory, "graphMemory");
    }

    public static CalculatorOptions defaults() {
        return new CalculatorOptions(ExecutionMode.COMPILED, false, line -> CIRCUIT_LOG.debug("{}", line),
                WitnessLimits.defaults(), true, GraphMemory.unaccounted());
    }

    public CalculatorOptions withMode(ExecutionMode mode) {
        return new CalculatorOptions(mode, sanityCheck, logSink, limits, graph, graphMemory);
    }

    public CalculatorOptions withSanityCheck(boolean sanityCheck) {
        return new CalculatorOptions(mode, sanityCheck, logSink, limits, graph, graphMemory);
    }

    public CalculatorOptions withLogSink(Consumer<String> logSink) {
        return new CalculatorOptions(mode, sanityCheck, logSink, limits, graph, graphMemory);
    }

    public CalculatorOptions withLimits(WitnessLimits limits) {
        return new CalculatorOptions(mode, sanityCheck, logSink, limits, graph, graphMemory);
    }

    public CalculatorOptions withGraph(boolean graph) {
        return new CalculatorOptions(mode, sanityCheck, logSink, limits, graph, graphMemory);
    }

    public CalculatorOptions withGraphMemory(GraphMemory graphMemory) {
        return new CalculatorOptions(mode, sanityCheck, logSink, limits, graph, graphMemory);
    }
}
