package io.proofline.witness;

import com.dylibso.chicory.compiler.InterpreterFallback;
import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.WasmModule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Function;

/**
 * A module and, when compiled, Chicory's machine for it (JVM bytecode made once, shared by every instance), made on
 * first use: a calculator that computes with its witness graph never compiles the wasm it falls back to.
 */
final class WasmCode {

    private static final Logger LOG = LoggerFactory.getLogger(CircomWitnessCalculator.class);

    private final WasmModule module;
    private final boolean compiled;
    private volatile Function<Instance, Machine> machine;
    private volatile boolean made;

    WasmCode(WasmModule module, CalculatorOptions.ExecutionMode mode) {
        this.module = module;
        this.compiled = mode == CalculatorOptions.ExecutionMode.COMPILED;
    }

    WasmModule module() {
        return module;
    }

    /** Chicory's compiled machine, or null for the interpreter (interpreted mode, or a module it cannot compile). */
    Function<Instance, Machine> machine() {
        if (!made) {
            synchronized (this) {
                if (!made) {
                    machine = compiled ? compile(module) : null;
                    made = true;
                }
            }
        }
        return machine;
    }

    /** Compiles once per module; a module Chicory cannot compile still runs, interpreted. */
    private static Function<Instance, Machine> compile(WasmModule module) {
        try {
            return MachineFactoryCompiler.builder(module).withInterpreterFallback(InterpreterFallback.SILENT).compile();
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("Chicory could not compile the witness calculator; interpreting it (slower): {}", e.toString());
            return null;
        }
    }
}
