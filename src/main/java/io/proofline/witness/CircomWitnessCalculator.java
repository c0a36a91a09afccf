package io.proofline.witness;

import com.dylibso.chicory.compiler.InterpreterFallback;
import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import com.dylibso.chicory.runtime.ChicoryInterruptedException;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import io.proofline.witness.WitnessException.Reason;
import io.proofline.witness.internal.CappedMemory;
import io.proofline.witness.internal.CircomAbort;
import io.proofline.witness.internal.CircomErrorCode;
import io.proofline.witness.internal.CircomExports;
import io.proofline.witness.internal.CircomRuntimeImports;
import io.proofline.witness.internal.Deadline;
import io.proofline.witness.internal.Fnv1a64;
import io.proofline.witness.internal.SandboxLimitException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Computes witnesses with a circuit's witness-calculator {@code .wasm} ({@code circom --wasm}, circom 2.x)
 * on Chicory, a pure-Java WebAssembly runtime, following circom's {@code witness_calculator.js} step by step:
 * {@code init}; per input signal {@code getInputSignalSize} and one {@code setInputSignal} per value (the
 * circuit runs when the last input is set); then {@code getWitness(i)} for every value.
 *
 * <p>{@link #load} parses, checks and compiles the module once; {@link #calculate} creates a fresh instance
 * (its own linear memory) per computation, so one calculator can be shared by any number of threads.
 *
 * <p>The module may come from anyone (the service registers uploaded wasm), so it runs in a sandbox
 * ({@link WitnessLimits}): each run of its code on a thread of its own under a deadline (load and computation), its
 * linear memory capped, its log output bounded, and the sizes it reports checked before they size anything.
 */
public final class CircomWitnessCalculator {

    private static final Logger LOG = LoggerFactory.getLogger(CircomWitnessCalculator.class);
    /** The witness is read into one byte array. */
    private static final long MAX_WITNESS_BYTES = Integer.MAX_VALUE - 8;

    private final WasmModule module;
    /** Chicory's compiled machine for this module, or null for the interpreter. Shareable across instances. */
    private final Function<Instance, Machine> machineFactory;
    private final boolean hasSharedMemoryStart;
    private final CalculatorOptions options;
    private final int circomVersion;
    private final int n8;
    private final BigInteger prime;
    private final int witnessSize;
    private final int inputSize;

    private CircomWitnessCalculator(WasmModule module, CalculatorOptions options) {
        this.module = module;
        this.options = options;
        CircomRuntimeImports.checkSupported(module);
        this.hasSharedMemoryStart = CircomExports.checkSupported(module);
        this.machineFactory = options.mode() == CalculatorOptions.ExecutionMode.COMPILED ? compile(module) : null;

        // The module's own code runs for the first time here (its start function, the describing exports).
        CircuitShape shape = Deadline.run("loading the witness calculator", options.limits().loadTimeout(),
                "witness load timeout", this::probe);
        this.circomVersion = shape.circomVersion();
        this.n8 = shape.n8();
        this.prime = shape.prime();
        this.witnessSize = shape.witnessSize();
        this.inputSize = shape.inputSize();
        if (circomVersion != 2) {
            throw new WitnessException(Reason.INVALID_MODULE, "unsupported circom version " + circomVersion + " (need 2.x)");
        }
    }

    /** What the module says about its circuit, each size checked before anything is sized by it. */
    private record CircuitShape(int circomVersion, int n8, BigInteger prime, int witnessSize, int inputSize) {
    }

    private CircuitShape probe() {
        CircomRuntimeImports runtime = runtime();
        try {
            CircomExports probe = new CircomExports(instantiate(runtime), hasSharedMemoryStart);
            int version = probe.version();
            int n32 = probe.n32();
            if (n32 < 1 || n32 > CircomRuntimeImports.MAX_N32) {
                throw new WitnessException(Reason.LIMIT, "getFieldNumLen32 answered " + n32
                        + ": not a field size (1 to " + CircomRuntimeImports.MAX_N32 + " words)");
            }
            int bytes = 4 * n32;
            probe.loadRawPrime();
            byte[] primeBytes = new byte[bytes];
            probe.readShared(primeBytes, 0);
            int witnessValues = probe.witnessSize();
            if (witnessValues < 1 || (long) witnessValues * bytes > MAX_WITNESS_BYTES) {
                throw new WitnessException(Reason.LIMIT, "getWitnessSize answered " + witnessValues + ": a witness of "
                        + bytes + "-byte values must have 1 to " + MAX_WITNESS_BYTES / bytes + " of them");
            }
            int inputValues = probe.inputSize();
            if (inputValues < 0 || inputValues > witnessValues) {
                throw new WitnessException(Reason.LIMIT, "getInputSize answered " + inputValues
                        + ": not between 0 and the witness size " + witnessValues);
            }
            return new CircuitShape(version, bytes, Bytes.fromLittleEndian(primeBytes, 0, bytes), witnessValues,
                    inputValues);
        } catch (WitnessException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            SandboxLimitException limit = findCause(e, SandboxLimitException.class);
            if (limit != null) {
                throw new WitnessException(Reason.LIMIT, limit.getMessage(), e);
            }
            throw new WitnessException(Reason.INVALID_MODULE, "cannot start the witness calculator: " + e.getMessage(), e);
        }
    }

    public static CircomWitnessCalculator load(byte[] wasm) {
        return load(wasm, CalculatorOptions.defaults());
    }

    public static CircomWitnessCalculator load(byte[] wasm, CalculatorOptions options) {
        WasmModule module;
        try {
            module = Parser.parse(wasm);
        } catch (RuntimeException e) {
            throw new WitnessException(Reason.INVALID_MODULE, "not a valid WebAssembly module: " + e.getMessage(), e);
        }
        return new CircomWitnessCalculator(module, options);
    }

    public static CircomWitnessCalculator load(Path wasm) {
        return load(wasm, CalculatorOptions.defaults());
    }

    public static CircomWitnessCalculator load(Path wasm, CalculatorOptions options) {
        try {
            return load(Files.readAllBytes(wasm), options);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + wasm, e);
        }
    }

    /** The circuit's scalar field prime r. */
    public BigInteger prime() {
        return prime;
    }

    /** Bytes per field element. */
    public int n8() {
        return n8;
    }

    /** Number of witness values the circuit produces, {@code w[0] = 1} included. */
    public int witnessSize() {
        return witnessSize;
    }

    /** Number of input values the circuit needs, over all input signals. */
    public int inputSize() {
        return inputSize;
    }

    /** The major version of circom that built the module (always 2 here). */
    public int circomVersion() {
        return circomVersion;
    }

    /** Parses a snarkjs-style input map (see {@link WitnessInput#of}) and computes its witness. */
    public CircomWitness calculate(Map<String, ?> input) {
        return calculate(WitnessInput.of(input));
    }

    /**
     * Computes the witness for {@code input}.
     *
     * @throws WitnessException with circom's message when an input signal is unknown or has the wrong
     *                          number of values, inputs are missing, or the circuit fails (e.g. an {@code assert});
     *                          with {@link Reason#INTERRUPTED} when the thread is interrupted (cancellation)
     */
    public CircomWitness calculate(WitnessInput input) {
        return Deadline.run("the witness computation", options.limits().timeout(), "witness timeout",
                () -> calculateHere(input));
    }

    private CircomWitness calculateHere(WitnessInput input) {
        CircomRuntimeImports runtime = runtime();
        CircomExports wasm = guarded(runtime, "starting", () -> new CircomExports(instantiate(runtime), hasSharedMemoryStart));
        guarded(runtime, "init", () -> {
            wasm.init(options.sanityCheck());
            return null;
        });
        setInputs(wasm, runtime, input);
        return guarded(runtime, "reading the witness", () -> readWitness(wasm, runtime));
    }

    private void setInputs(CircomExports wasm, CircomRuntimeImports runtime, WitnessInput input) {
        byte[] element = new byte[n8];
        int set = 0;
        for (Map.Entry<String, List<BigInteger>> signal : input.signals().entrySet()) {
            String name = signal.getKey();
            List<BigInteger> values = signal.getValue();
            long hash = Fnv1a64.hash(name);
            int expected = guarded(runtime, "input '" + name + "'", () -> wasm.inputSignalSize(hash));
            // circom answers -1 (older builds) or 0 (2.2.x) for a name that is no input signal. With
            // no values, snarkjs accepts such a key silently, and so do we.
            if (expected <= 0 && !values.isEmpty()) {
                throw new WitnessException(Reason.INVALID_INPUT,
                        "Signal " + name + " not found: it is not an input of the circuit");
            }
            if (values.size() != expected) {
                throw new WitnessException(Reason.INVALID_INPUT, (values.size() < expected ? "Not enough" : "Too many")
                        + " values for input signal " + name + ": expected " + expected + ", got " + values.size());
            }
            for (int i = 0; i < values.size(); i++) {
                byte[] le = Bytes.toLittleEndian(values.get(i).mod(prime), n8); // snarkjs's normalize()
                System.arraycopy(le, 0, element, 0, n8);
                int index = i;
                // The circuit itself runs inside the call that sets the last input value.
                guarded(runtime, "input '" + name + "'[" + i + "]", () -> {
                    wasm.writeShared(element, 0);
                    wasm.setInputSignal(hash, index);
                    return null;
                });
                set++;
            }
        }
        if (set < inputSize) {
            throw new WitnessException(Reason.INVALID_INPUT,
                    "Not all inputs have been set. Only " + set + " out of " + inputSize);
        }
    }

    private CircomWitness readWitness(CircomExports wasm, CircomRuntimeImports runtime) {
        byte[] values = new byte[Math.multiplyExact(witnessSize, n8)];
        for (int i = 0; i < witnessSize; i++) {
            wasm.loadWitness(i);
            wasm.readShared(values, i * n8);
        }
        return new CircomWitness(prime, n8, values, runtime.log());
    }

    private CircomRuntimeImports runtime() {
        WitnessLimits limits = options.limits();
        return new CircomRuntimeImports(options.logSink(), limits.maxLogBytes(), limits.maxMemoryBytes());
    }

    private Instance instantiate(CircomRuntimeImports runtime) {
        long maxMemory = options.limits().maxMemoryBytes();
        Instance.Builder builder = Instance.builder(module).withImportValues(runtime.importValues(module))
                .withMemoryFactory(limits -> CappedMemory.of(limits, maxMemory));
        if (machineFactory != null) {
            builder.withMachineFactory(machineFactory);
        }
        return builder.build();
    }

    /**
     * Runs one step against the wasm and turns whatever escapes it into a {@link WitnessException}:
     * circom's {@code exceptionHandler} codes with the text circom prints, anything else as a trap.
     */
    private static <T> T guarded(CircomRuntimeImports runtime, String step, Supplier<T> body) {
        try {
            return body.get();
        } catch (WitnessException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            SandboxLimitException limit = findCause(e, SandboxLimitException.class);
            if (limit != null) {
                throw new WitnessException(Reason.LIMIT, limit.getMessage() + " (while " + step + ")", -1,
                        runtime.log(), e);
            }
            if (findCause(e, ChicoryInterruptedException.class) != null) {
                // Chicory polls the interrupt flag in loops and calls, and leaves it set for the caller.
                throw new WitnessException(Reason.INTERRUPTED, "witness computation interrupted while " + step,
                        -1, runtime.log(), e);
            }
            CircomAbort abort = findCause(e, CircomAbort.class);
            String details = runtime.errors().isEmpty() ? "" : " " + runtime.errors().replace('\n', ' ');
            if (abort != null) {
                int code = abort.code();
                boolean inputFault = code == CircomErrorCode.SIGNAL_NOT_FOUND.code()
                        || code == CircomErrorCode.TOO_MANY_SIGNALS.code()
                        || code == CircomErrorCode.SIGNAL_ALREADY_SET.code()
                        || code == CircomErrorCode.INPUT_ARRAY_OVERFLOW.code();
                String message = CircomErrorCode.describe(code) + details;
                throw new WitnessException(inputFault ? Reason.INVALID_INPUT : Reason.CIRCUIT_ERROR,
                        inputFault ? message + " (" + step + ")" : message, code, runtime.log(), null);
            }
            throw new WitnessException(Reason.RUNTIME_TRAP, "the witness calculator trapped while " + step + ": "
                    + e + details, -1, runtime.log(), e);
        }
    }

    private static <T extends Throwable> T findCause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
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
