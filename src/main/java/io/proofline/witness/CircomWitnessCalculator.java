package io.proofline.witness;

import com.dylibso.chicory.runtime.ChicoryInterruptedException;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.field.PrimeField;
import io.proofline.witness.WitnessException.Reason;
import io.proofline.witness.graph.DeadlineException;
import io.proofline.witness.graph.GraphBuilder;
import io.proofline.witness.graph.GraphTooLargeException;
import io.proofline.witness.graph.GuardFailedException;
import io.proofline.witness.graph.InputSignal;
import io.proofline.witness.graph.UnsupportedOperandException;
import io.proofline.witness.graph.WitnessGraph;
import io.proofline.witness.internal.CappedMemory;
import io.proofline.witness.internal.CircomAbort;
import io.proofline.witness.internal.CircomErrorCode;
import io.proofline.witness.internal.CircomExports;
import io.proofline.witness.internal.CircomRuntimeImports;
import io.proofline.witness.internal.Deadline;
import io.proofline.witness.internal.FieldElements;
import io.proofline.witness.internal.FieldHost;
import io.proofline.witness.internal.Fnv1a64;
import io.proofline.witness.internal.HostFieldModule;
import io.proofline.witness.internal.SandboxLimitException;
import io.proofline.witness.internal.TracingField;
import io.proofline.witness.internal.UnsupportedModuleException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Computes witnesses with a circuit's witness-calculator {@code .wasm} ({@code circom --wasm}, circom 2.x): by the
 * circuit's witness graph ({@link WitnessGraph}), recorded from the first computation, for every input that takes the
 * recorded path; otherwise by the wasm on Chicory, a pure-Java WebAssembly runtime, following circom's
 * {@code witness_calculator.js} step by step: {@code init}; per input signal {@code getInputSignalSize} and one
 * {@code setInputSignal} per value (the circuit runs when the last input is set); then {@code getWitness(i)} for every
 * value. docs/ARCHITECTURE.md ("witness") says when which runs.
 *
 * <p>{@link #load} parses, checks and compiles the module once; a wasm computation creates a fresh instance (its own
 * linear memory), a graph evaluation its own slots, so one calculator can be shared by any number of threads.
 * {@link #close} frees the graph's off-heap program.
 *
 * <p>The module may come from anyone (the service registers uploaded wasm), so it runs in a sandbox
 * ({@link WitnessLimits}): each run of its code on a thread of its own under a deadline (load and computation), its
 * linear memory capped, its log output bounded, and the sizes it reports checked before they size anything.
 */
public final class CircomWitnessCalculator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CircomWitnessCalculator.class);
    /** The witness is read into one byte array. */
    private static final long MAX_WITNESS_BYTES = Integer.MAX_VALUE - 8;
    /** What recording holds per node (kind, operands, value and the constants' index), for the node limit. */
    private static final long GRAPH_BYTES_PER_NODE = 64;

    /** The circuit's wasm as it came: it computes the witnesses that no graph holds. */
    private final WasmCode wasm;
    /**
     * The wasm with its field functions on the host ({@link HostFieldModule}), for recording the graph; null where
     * the module cannot be rewritten, and once recording is over.
     */
    private volatile WasmCode recorder;
    private final boolean hasSharedMemoryStart;
    private final CalculatorOptions options;
    private final int circomVersion;
    private final int n8;
    private final BigInteger prime;
    private final int witnessSize;
    private final int inputSize;
    /** Address of the element whose long form is the shared RW memory (inputs enter there), or -1. */
    private final int sharedElement;
    /** The field the host computes in, or null where the module runs its own field code (and records no graph). */
    private final PrimeField hostField;
    private final GraphRecording graph;

    private CircomWitnessCalculator(WasmModule original, byte[] wasm, CalculatorOptions options) {
        this.options = options;
        CircomRuntimeImports.checkSupported(original);
        this.hasSharedMemoryStart = CircomExports.checkSupported(original);

        // The module's own code runs for the first time here (its start function, the describing exports).
        CircuitShape shape = Deadline.run("loading the witness calculator", options.limits().loadTimeout(),
                "witness load timeout", () -> probe(original));
        this.circomVersion = shape.circomVersion();
        this.n8 = shape.n8();
        this.prime = shape.prime();
        this.witnessSize = shape.witnessSize();
        this.inputSize = shape.inputSize();
        this.sharedElement = shape.sharedElement();
        if (circomVersion != 2) {
            throw new WitnessException(Reason.INVALID_MODULE, "unsupported circom version " + circomVersion + " (need 2.x)");
        }
        HostFieldModule rewritten = options.graph() ? hostFieldModule(wasm, prime) : null;
        this.hostField = rewritten == null ? null : fieldOf(prime);
        this.wasm = new WasmCode(original, options.mode());
        this.recorder = rewritten == null ? null : new WasmCode(rewritten.module(), options.mode());
        // What a first computation runs is compiled now, at load (the wasm on first need where a graph is recorded).
        (recorder == null ? this.wasm : recorder).machine();
        this.graph = new GraphRecording(!options.graph() ? "turned off (CalculatorOptions.graph)"
                : rewritten == null ? "the module's field code cannot run on the host" : null, options.graph());
    }

    /** The module with its field functions on the host, or null where that cannot be (logged). */
    private static HostFieldModule hostFieldModule(byte[] wasm, BigInteger prime) {
        if (fieldOf(prime) == null) {
            LOG.info("witness calculator over a prime other than BN254's and BLS12-381's scalar fields: its wasm "
                    + "computes every witness");
            return null;
        }
        try {
            return HostFieldModule.rewrite(Parser.parse(wasm));
        } catch (RuntimeException e) { // UnsupportedModuleException, or a module the rewriting trips over
            LOG.info("witness calculator not laid out as circom's ({}): its wasm computes every witness",
                    e.getMessage());
            return null;
        }
    }

    private static PrimeField fieldOf(BigInteger prime) {
        for (PrimeField field : List.of(Bn254.FR, Bls12381.FR)) {
            if (field.modulus().equals(prime)) {
                return field;
            }
        }
        return null;
    }

    /** What the module says about its circuit, each size checked before anything is sized by it. */
    private record CircuitShape(int circomVersion, int n8, BigInteger prime, int witnessSize, int inputSize,
                                int sharedElement) {
    }

    private CircuitShape probe(WasmModule original) {
        CircomRuntimeImports runtime = runtime();
        try {
            CircomExports probe = new CircomExports(instantiate(original, null, runtime, null), hasSharedMemoryStart);
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
                    inputValues, probe.sharedElement());
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
        return new CircomWitnessCalculator(module, wasm, options);
    }

    public static CircomWitnessCalculator load(Path wasm) {
        return load(wasm, CalculatorOptions.defaults());
    }

    /**
     * Loads the module of file {@code wasm} under the limits of its runs: a file larger than
     * {@link WitnessLimits#maxModuleBytes()} is refused before it is read, and reading, parsing and compiling it
     * run under the computation's deadline ({@link WitnessLimits#timeout()}), as its code does (plus the load
     * timeout, which its code at load runs under).
     */
    public static CircomWitnessCalculator load(Path wasm, CalculatorOptions options) {
        WitnessLimits limits = options.limits();
        long size;
        try {
            size = Files.size(wasm);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + wasm, e);
        }
        if (size > limits.maxModuleBytes()) {
            throw new WitnessException(Reason.LIMIT, "the module is " + size + " bytes, more than the "
                    + limits.maxModuleBytes() + " a witness calculator may load (1/" + WitnessLimits.MODULE_EXPANSION
                    + " of its linear memory limit of " + limits.maxMemoryBytes() + " bytes)");
        }
        // Reading, parsing and compiling get the computation's deadline; the module's own code at load runs inside it
        // under the load timeout, which therefore still names a module that loops at load.
        Duration deadline = limits.timeout().isZero() || limits.loadTimeout().isZero() ? Duration.ZERO
                : limits.timeout().plus(limits.loadTimeout());
        return Deadline.run("reading, parsing and compiling the witness calculator", deadline,
                "witness timeout (plus the load timeout)", () -> {
                    try {
                        return load(Files.readAllBytes(wasm), options);
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot read " + wasm, e);
                    }
                });
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
     * Computes the witness for {@code input}: by the circuit's witness graph where it has one and the input takes the
     * recorded path, else by its wasm (the first computation records the graph as it runs).
     *
     * @throws WitnessException with circom's message when an input signal is unknown or has the wrong
     *                          number of values, inputs are missing, or the circuit fails (e.g. an {@code assert});
     *                          with {@link Reason#INTERRUPTED} when the thread is interrupted (cancellation)
     */
    public CircomWitness calculate(WitnessInput input) {
        byte[] values = new byte[Math.multiplyExact(witnessSize, n8)];
        WitnessRun run = calculateInto(input, MemorySegment.ofArray(values));
        return new CircomWitness(prime, n8, values, run.log(), run.engine());
    }

    /**
     * Computes the witness for {@code input} into {@code out} ({@link #witnessSize()} canonical little-endian values
     * of {@link #n8()} bytes, as {@link CircomWitness#copyTo} writes them): the service's path, where {@code out} is
     * the partition's reserved WITNESS buffer. The input is flattened into the same memory first (it has room for
     * every input value: {@link #inputSize()} is below the witness size), read from there before the first witness
     * value is written, and read again from {@code input} by a computation that leaves the graph for the wasm; so
     * neither the input nor the witness is ever on the heap. {@code out} must be accessible from any thread (a shared
     * or global arena): a wasm computation runs on a thread of its own, under its deadline.
     *
     * @throws WitnessException as {@link #calculate(WitnessInput)}
     */
    public WitnessRun calculateInto(InputSource input, MemorySegment out) {
        if (out.byteSize() < (long) witnessSize * n8) {
            throw new IllegalArgumentException("the witness needs " + (long) witnessSize * n8 + " bytes, not "
                    + out.byteSize());
        }
        WitnessGraph recorded = graph.acquire();
        if (recorded != null) {
            boolean computed;
            try {
                computed = evaluate(recorded, input, out);
            } finally {
                graph.release();
            }
            if (computed) {
                return new WitnessRun(WitnessEngine.GRAPH, List.of());
            }
        } else if (graph.startRecording()) {
            try {
                return Deadline.run("the witness computation", options.limits().timeout(), "witness timeout",
                        () -> recordHere(input, out));
            } finally {
                graph.endRecording();
            }
        }
        return Deadline.run("the witness computation", options.limits().timeout(), "witness timeout",
                () -> calculateHere(input, out));
    }

    /**
     * The input flattened into {@code out}'s first values (its witness overwrites them later). Up to the witness's
     * size, not the inputs': an input with a value too many is refused by circom's own checks, naming the signal.
     */
    private FlatInput flatten(InputSource input, MemorySegment out) {
        return FlatInput.read(input, out, n8, witnessSize, inputSize, prime);
    }

    /** Whether the graph computed the witness into {@code out}; false where the wasm must (another path, inputs). */
    private boolean evaluate(WitnessGraph recorded, InputSource input, MemorySegment out) {
        FlatInput flat = flatten(input, out);
        int[] order = order(recorded, flat);
        if (order == null) {
            graph.offPath("the input's signals are not the recorded ones");
            return false;
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new WitnessException(Reason.INTERRUPTED, "the witness computation was interrupted");
        }
        Duration timeout = options.limits().timeout();
        long deadline = timeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        try {
            recorded.evaluate(k -> flat.value(order[k]), out, deadline);
            return true;
        } catch (GuardFailedException | UnsupportedOperandException e) {
            graph.offPath(e.getMessage());
            return false;
        } catch (DeadlineException e) {
            if (e.interrupted()) {
                throw new WitnessException(Reason.INTERRUPTED, "the witness computation was interrupted");
            }
            throw new WitnessException(Reason.LIMIT, "the witness computation took longer than the witness timeout of "
                    + Deadline.format(timeout));
        }
    }

    /**
     * For each of the graph's inputs, in graph order, the index of its value in {@code flat}; null where the input's
     * signals are not the recorded ones (a signal missing, another count, or one more signal with values).
     */
    private static int[] order(WitnessGraph recorded, FlatInput flat) {
        Map<String, FlatInput.Signal> byName = new HashMap<>();
        int withValues = 0;
        for (FlatInput.Signal s : flat.signals()) {
            byName.put(s.name(), s);
            if (s.count() > 0) {
                withValues++;
            }
        }
        int[] order = new int[recorded.inputCount()];
        int matched = 0;
        for (InputSignal signal : recorded.inputs()) {
            FlatInput.Signal given = byName.get(signal.name());
            if (given == null || given.count() != signal.size()) {
                return null;
            }
            for (int i = 0; i < signal.size(); i++) {
                order[signal.offset() + i] = given.offset() + i;
            }
            matched++;
        }
        return withValues == matched && byName.size() == flat.signals().size() ? order : null;
    }

    private WitnessRun calculateHere(InputSource input, MemorySegment out) {
        CircomRuntimeImports runtime = runtime();
        CircomExports wasm = start(this.wasm, runtime, null);
        FlatInput flat = flatten(input, out);
        byte[] le = new byte[n8];
        setInputs(wasm, runtime, flat, (hash, index, k) -> {
            flat.copyValue(k, le); // reduced mod p when flattened: snarkjs's normalize()
            wasm.writeShared(le, 0);
            wasm.setInputSignal(hash, index);
        });
        guarded(runtime, "reading the witness", () -> readWitness(wasm, out));
        return new WitnessRun(WitnessEngine.WASM, runtime.log());
    }

    /**
     * A recording run: the wasm computes the witness with {@link TracingField} behind its field functions, and the
     * graph it leaves is kept for the next computations. Where recording fails, the wasm computes this witness.
     */
    private WitnessRun recordHere(InputSource input, MemorySegment out) {
        long started = System.nanoTime();
        GraphBuilder builder = new GraphBuilder(hostField, options.limits().maxMemoryBytes() / GRAPH_BYTES_PER_NODE);
        CircomRuntimeImports runtime = CircomRuntimeImports.forRecording(options.limits().maxLogBytes(),
                options.limits().maxMemoryBytes());
        try {
            WitnessRun witness = record(builder, runtime, input, out);
            recorder = null; // its compiled code can go
            WitnessGraph recorded = graph.graph();
            if (recorded != null) {
                LOG.info("witness graph recorded in {} ms: {} operators, {} guards, {} KiB of program off the heap, "
                                + "{} KiB an evaluation", (System.nanoTime() - started) / 1_000_000,
                        recorded.operators(), recorded.guards(), recorded.programBytes() >> 10,
                        recorded.evaluationBytes() >> 10);
            }
            return witness;
        } catch (WitnessException e) {
            if (e.reason() == Reason.INTERRUPTED || e.reason() == Reason.INVALID_INPUT && !isStructural(e)) {
                throw e; // the same answer the wasm gives, and no fault of the recording
            }
            graph.failed(why(e), isStructural(e));
        } catch (RuntimeException | StackOverflowError e) {
            graph.failed(why(e), isStructural(e));
        } finally {
            if (graph.graph() != null || graph.noGraph() != null) {
                recorder = null; // its compiled code can go
            }
        }
        return calculateHere(input, out);
    }

    private WitnessRun record(GraphBuilder builder, CircomRuntimeImports runtime, InputSource input,
                              MemorySegment out) {
        if (sharedElement < 0) {
            throw new UnsupportedModuleException("the module does not export getSharedRWMemoryStart");
        }
        int staging = sharedElement;
        TracingField field = new TracingField(builder, staging);
        WasmCode code = recorder;
        if (code == null) {
            throw new UnsupportedModuleException("recording is over");
        }
        CircomExports recording = start(code, runtime, field);
        List<InputSignal> signals = new ArrayList<>();
        FlatInput flat = flatten(input, out);
        setInputs(recording, runtime, flat, (hash, index, k) -> {
            long[] montgomery = hostField.fromBigInteger(flat.value(k));
            FieldElements.writeNode(recording.memory(), staging, builder.input(montgomery));
            recording.setInputSignal(hash, index);
        }, signals);
        long[] limbs = new long[hostField.limbs()];
        byte[] value = new byte[n8];
        guarded(runtime, "reading the witness", () -> {
            for (int i = 0; i < witnessSize; i++) {
                recording.loadWitness(i);
                builder.witness(i, field.handedOut());
                builder.value(field.handedOut(), limbs, 0);
                hostField.toBytes(limbs, 0, false, false, value, 0);
                MemorySegment.copy(value, 0, out, ValueLayout.JAVA_BYTE, (long) i * n8, n8);
            }
            return null;
        });
        GraphMemory.Block[] block = new GraphMemory.Block[1];
        WitnessGraph recorded = builder.build(witnessSize, signals, bytes -> {
            block[0] = allocateGraph(bytes);
            return block[0].segment();
        });
        long cap = options.limits().maxMemoryBytes();
        if (recorded.evaluationBytes() > cap) {
            block[0].close();
            throw new GraphTooLargeException("an evaluation of the witness graph needs more than the witness memory "
                    + "limit of " + cap + " bytes");
        }
        graph.recorded(recorded, block[0]);
        return new WitnessRun(WitnessEngine.WASM, List.of());
    }

    /** What stopped a recording: the structural cause where there is one, else the failure itself. */
    private static String why(Throwable e) {
        Throwable cause = findCause(e, UnsupportedModuleException.class);
        if (cause == null) {
            cause = findCause(e, GraphTooLargeException.class);
        }
        return cause != null ? cause.getMessage() : e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /** The program's block, within the witness memory limit and where the graph memory has room. */
    private GraphMemory.Block allocateGraph(long bytes) {
        long cap = options.limits().maxMemoryBytes();
        if (bytes > cap) {
            throw new GraphTooLargeException("the witness graph's program needs " + bytes + " bytes, more than the "
                    + "witness memory limit of " + cap);
        }
        // No room now is no fault of the circuit: a later computation records again (GraphRecording.ATTEMPTS).
        return options.graphMemory().allocate(bytes).orElseThrow(() -> new IllegalStateException(
                "the memory budget has no room for the witness graph's " + bytes + " bytes"));
    }

    /**
     * Frees the witness graph's memory (at once, or when the computations running on it end); computations after it
     * run on the wasm.
     */
    @Override
    public void close() {
        graph.close();
    }

    private static boolean isStructural(Throwable e) {
        return findCause(e, UnsupportedModuleException.class) != null
                || findCause(e, GraphTooLargeException.class) != null;
    }

    /** A new instance of {@code code}, started ({@code init}); {@code field} behind its host field functions. */
    private CircomExports start(WasmCode code, CircomRuntimeImports runtime, FieldHost field) {
        CircomExports wasm = guarded(runtime, "starting", () -> new CircomExports(
                instantiate(code.module(), code.machine(), runtime, field), hasSharedMemoryStart));
        guarded(runtime, "init", () -> {
            wasm.init(options.sanityCheck());
            return null;
        });
        return wasm;
    }

    /** Sets one input value (value {@code k} of the flattened input): puts it where {@code setInputSignal} reads it. */
    @FunctionalInterface
    private interface InputSetter {
        void set(long hash, int index, int k);
    }

    private void setInputs(CircomExports wasm, CircomRuntimeImports runtime, FlatInput input, InputSetter setter) {
        setInputs(wasm, runtime, input, setter, new ArrayList<>());
    }

    private void setInputs(CircomExports wasm, CircomRuntimeImports runtime, FlatInput input, InputSetter setter,
                           List<InputSignal> signals) {
        int set = 0;
        for (FlatInput.Signal signal : input.signals()) {
            String name = signal.name();
            int count = signal.count();
            long hash = Fnv1a64.hash(name);
            int expected = guarded(runtime, "input '" + name + "'", () -> wasm.inputSignalSize(hash));
            // circom answers -1 (older builds) or 0 (2.2.x) for a name that is no input signal. With
            // no values, snarkjs accepts such a key silently, and so do we.
            if (expected <= 0 && count > 0) {
                throw new WitnessException(Reason.INVALID_INPUT,
                        "Signal " + name + " not found: it is not an input of the circuit");
            }
            if (count != expected) {
                throw new WitnessException(Reason.INVALID_INPUT, (count < expected ? "Not enough" : "Too many")
                        + " values for input signal " + name + ": expected " + expected + ", got " + count);
            }
            if (count > 0) {
                signals.add(new InputSignal(name, set, count));
            }
            for (int i = 0; i < count; i++) {
                int index = i;
                int k = signal.offset() + i;
                // The circuit itself runs inside the call that sets the last input value.
                guarded(runtime, "input '" + name + "'[" + i + "]", () -> {
                    setter.set(hash, index, k);
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

    private Void readWitness(CircomExports wasm, MemorySegment out) {
        byte[] value = new byte[n8];
        for (int i = 0; i < witnessSize; i++) {
            wasm.loadWitness(i);
            wasm.readShared(value, 0);
            MemorySegment.copy(value, 0, out, ValueLayout.JAVA_BYTE, (long) i * n8, n8);
        }
        return null;
    }

    private CircomRuntimeImports runtime() {
        WitnessLimits limits = options.limits();
        return new CircomRuntimeImports(options.logSink(), limits.maxLogBytes(), limits.maxMemoryBytes());
    }

    private Instance instantiate(WasmModule wasm, Function<Instance, Machine> machine, CircomRuntimeImports runtime,
                                 FieldHost field) {
        long maxMemory = options.limits().maxMemoryBytes();
        Instance.Builder builder = Instance.builder(wasm).withImportValues(runtime.importValues(wasm, field))
                .withMemoryFactory(limits -> CappedMemory.of(limits, maxMemory));
        if (machine != null) {
            builder.withMachineFactory(machine);
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

}
