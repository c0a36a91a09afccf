package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.HostFunction;
import com.dylibso.chicory.runtime.ImportMemory;
import com.dylibso.chicory.runtime.ImportValues;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.WasmFunctionHandle;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.FunctionImport;
import com.dylibso.chicory.wasm.types.Import;
import com.dylibso.chicory.wasm.types.MemoryImport;
import io.proofline.witness.WitnessException;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The host side of a circom witness calculator: the {@code runtime.*} functions that circom's
 * {@code witness_calculator.js} (and snarkjs's circom_runtime) pass to the wasm, with the same
 * behaviour. One object per computation, because it collects that computation's messages.
 *
 * <ul>
 *   <li>{@code exceptionHandler(code)}: abort the computation (throws {@link CircomAbort}).</li>
 *   <li>{@code printErrorMessage()}: append the pending message (read with {@code getMessageChar})
 *       to the error text that accompanies the abort, e.g. "Error in template Bounded_0 line: 11".</li>
 *   <li>{@code writeBufferMessage()}: one item of a circuit {@code log(...)}; a lone "\n" ends the line.</li>
 *   <li>{@code showSharedRWMemory()}: a field element item of {@code log(...)}, in decimal.</li>
 *   <li>{@code printDebug(i32)}: only in snarkjs's runtime; logged.</li>
 * </ul>
 * A module that imports {@code env.memory} (older circom builds) gets a fresh memory of its declared size.
 *
 * <p>The module is untrusted: what it sends through these imports (messages, log items, error text) counts against
 * one budget of characters, and the field size it reports is checked before it sizes anything; past either, the
 * computation stops with a {@link SandboxLimitException}.
 */
public final class CircomRuntimeImports {

    public static final String MODULE = "runtime";
    private static final Set<String> FUNCTIONS = Set.of(
            "exceptionHandler", "printErrorMessage", "writeBufferMessage", "showSharedRWMemory", "printDebug");

    /** The most 32-bit words a field element of a supported circuit has (BN254 and BLS12-381 scalars: 8). */
    public static final int MAX_N32 = 16;

    private final Consumer<String> logSink;
    private final boolean recording;
    private final long maxMemoryBytes;
    private final long maxLogChars;
    private long logChars;
    private final StringBuilder errors = new StringBuilder();
    private final StringBuilder pendingLine = new StringBuilder();
    private final List<String> log = new ArrayList<>();

    /**
     * @param logSink        receives each completed {@code log()} line of the circuit (as well as {@link #log()})
     * @param maxLogChars    the characters of messages, log items and error text the module may send in all
     * @param maxMemoryBytes the size an imported linear memory may reach
     */
    public CircomRuntimeImports(Consumer<String> logSink, long maxLogChars, long maxMemoryBytes) {
        this(logSink, maxLogChars, maxMemoryBytes, false);
    }

    /**
     * For a recording run ({@link TracingField}): the circuit's {@code log()} would print node references, not values,
     * so a circuit that logs stops the recording ({@link UnsupportedModuleException}) and is left to the wasm.
     */
    public static CircomRuntimeImports forRecording(long maxLogChars, long maxMemoryBytes) {
        return new CircomRuntimeImports(line -> { }, maxLogChars, maxMemoryBytes, true);
    }

    private CircomRuntimeImports(Consumer<String> logSink, long maxLogChars, long maxMemoryBytes, boolean recording) {
        this.recording = recording;
        this.logSink = logSink;
        this.maxLogChars = maxLogChars;
        this.maxMemoryBytes = maxMemoryBytes;
    }

    /** Rejects, at load time, a module that needs imports this runtime does not provide. */
    public static void checkSupported(WasmModule module) {
        List<String> unsupported = new ArrayList<>();
        module.importSection().stream().forEach(imp -> {
            boolean ok = switch (imp) {
                case FunctionImport f -> MODULE.equals(f.module()) && FUNCTIONS.contains(f.name());
                case MemoryImport m -> true;
                default -> false;
            };
            if (!ok) {
                unsupported.add(imp.module() + "." + imp.name() + " (" + imp.importType() + ")");
            }
        });
        if (!unsupported.isEmpty()) {
            throw new WitnessException(WitnessException.Reason.INVALID_MODULE,
                    "not a circom 2 witness calculator: unsupported wasm imports " + unsupported);
        }
    }

    /** The import values for one instance of {@code module}, typed as the module declares them. */
    public ImportValues importValues(WasmModule module) {
        return importValues(module, null);
    }

    /**
     * The import values for one instance of {@code module}, a {@link HostFieldModule}'s field imports (if any)
     * calling {@code field}.
     */
    public ImportValues importValues(WasmModule module, FieldHost field) {
        ImportValues.Builder builder = ImportValues.builder();
        for (int i = 0; i < module.importSection().importCount(); i++) {
            Import imp = module.importSection().getImport(i);
            switch (imp) {
                case FunctionImport f when HostFieldModule.IMPORT_MODULE.equals(f.module()) && field != null ->
                        builder.addFunction(FieldImports.function(f.name(), module.typeSection().getType(f.typeIndex()),
                                field));
                case FunctionImport f -> builder.addFunction(new HostFunction(f.module(), f.name(),
                        module.typeSection().getType(f.typeIndex()), handler(f.name())));
                case MemoryImport m -> builder.addMemory(
                        new ImportMemory(m.module(), m.name(), CappedMemory.of(m.limits(), maxMemoryBytes)));
                default -> throw new IllegalStateException("checkSupported lets no " + imp + " through");
            }
        }
        return builder.build();
    }

    private WasmFunctionHandle handler(String name) {
        if (recording && !name.equals("exceptionHandler") && !name.equals("printErrorMessage")) {
            return (instance, args) -> {
                throw new UnsupportedModuleException("the circuit logs (runtime." + name + ")");
            };
        }
        return switch (name) {
            case "exceptionHandler" -> (instance, args) -> {
                throw new CircomAbort((int) args[0]);
            };
            case "printErrorMessage" -> (instance, args) -> {
                String message = readMessage(instance);
                count(1);
                errors.append(message).append('\n');
                return null;
            };
            case "writeBufferMessage" -> (instance, args) -> {
                String message = readMessage(instance);
                if (message.equals("\n")) {
                    endLine();
                } else {
                    appendItem(message);
                }
                return null;
            };
            case "showSharedRWMemory" -> (instance, args) -> {
                appendItem(readSharedFieldElement(instance).toString());
                return null;
            };
            case "printDebug" -> (instance, args) -> {
                String line = "printDebug: " + (int) args[0];
                count(line.length());
                emit(line);
                return null;
            };
            default -> throw new IllegalStateException("checkSupported lets no runtime." + name + " through");
        };
    }

    /** The text passed to {@code printErrorMessage} so far (circom's {@code errStr}), trimmed. */
    public String errors() {
        return errors.toString().strip();
    }

    /** The completed {@code log()} lines, plus a line still being built when the circuit aborted. */
    public List<String> log() {
        if (pendingLine.isEmpty()) {
            return List.copyOf(log);
        }
        List<String> all = new ArrayList<>(log);
        all.add(pendingLine.toString());
        return all;
    }

    private void appendItem(String item) {
        count(1); // the separator: an empty item still costs
        if (!pendingLine.isEmpty()) {
            pendingLine.append(' '); // items of one log() call are separated by spaces, as in the JS
        }
        pendingLine.append(item);
    }

    private void endLine() {
        emit(pendingLine.toString());
        pendingLine.setLength(0);
    }

    private void emit(String line) {
        count(1);
        log.add(line);
        logSink.accept(line);
    }

    /**
     * circom's {@code getMessage()}: characters from {@code getMessageChar()} until a 0, each counted against the log
     * budget (a module whose message never ends stops there).
     */
    private String readMessage(Instance instance) {
        ExportFunction next = instance.export("getMessageChar");
        StringBuilder message = new StringBuilder();
        for (int c = (int) next.apply()[0]; c != 0; c = (int) next.apply()[0]) {
            count(1);
            message.append((char) c);
        }
        return message.toString();
    }

    private void count(long chars) {
        logChars += chars;
        if (logChars > maxLogChars) {
            throw new SandboxLimitException("the circuit's log and message output passed the limit of " + maxLogChars
                    + " characters");
        }
    }

    private BigInteger readSharedFieldElement(Instance instance) {
        int n32 = (int) instance.export("getFieldNumLen32").apply()[0];
        if (n32 < 1 || n32 > MAX_N32) {
            throw new SandboxLimitException("getFieldNumLen32 answered " + n32 + ": not a field size (1 to " + MAX_N32
                    + " words)");
        }
        count(10L * n32); // the decimal digits of the element, at most ~9.7 per word
        ExportFunction read = instance.export("readSharedRWMemory");
        byte[] bigEndian = new byte[4 * n32 + 1]; // leading 0: non-negative
        for (int j = 0; j < n32; j++) {
            int word = (int) read.apply(j)[0];
            int at = 1 + 4 * (n32 - 1 - j);
            bigEndian[at] = (byte) (word >>> 24);
            bigEndian[at + 1] = (byte) (word >>> 16);
            bigEndian[at + 2] = (byte) (word >>> 8);
            bigEndian[at + 3] = (byte) word;
        }
        return new BigInteger(bigEndian);
    }
}
