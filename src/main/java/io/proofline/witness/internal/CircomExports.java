package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.WasmModule;
import com.dylibso.chicory.wasm.types.ExternalType;
import io.proofline.witness.WitnessException;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Typed access to the exports of one instance of a circom 2 witness calculator.
 *
 * <p>Field elements travel through the "shared RW memory": {@code n32} little-endian u32 words that
 * {@code getRawPrime()}, {@code getWitness(i)} fill and {@code setInputSignal} consumes. circom's JS reads
 * them one export call per word ({@code readSharedRWMemory(j)}); where the module exports
 * {@code getSharedRWMemoryStart} (circom 2.0.x onward) we copy the n8 bytes straight from linear memory
 * instead, which removes {@code n32} calls per witness value.
 */
public final class CircomExports {

    /** What circom's {@code witness_calculator.js} calls; all circom 2 builds export these. */
    private static final List<String> REQUIRED = List.of("getVersion", "getFieldNumLen32", "getRawPrime",
            "getWitnessSize", "getInputSize", "init", "getInputSignalSize", "setInputSignal",
            "readSharedRWMemory", "writeSharedRWMemory", "getWitness");
    private static final String SHARED_START = "getSharedRWMemoryStart";

    private final Instance instance;
    private final ExportFunction readShared;
    private final ExportFunction writeShared;
    private final ExportFunction getWitness;
    private final ExportFunction setInputSignal;
    private final ExportFunction getInputSignalSize;
    private final int n32;
    /** Byte address of the shared RW memory in linear memory, or -1 to go through the exports. */
    private final int sharedStart;

    public CircomExports(Instance instance, boolean hasSharedStart) {
        this.instance = instance;
        this.readShared = instance.export("readSharedRWMemory");
        this.writeShared = instance.export("writeSharedRWMemory");
        this.getWitness = instance.export("getWitness");
        this.setInputSignal = instance.export("setInputSignal");
        this.getInputSignalSize = instance.export("getInputSignalSize");
        this.n32 = call("getFieldNumLen32");
        this.sharedStart = hasSharedStart ? call(SHARED_START) : -1;
    }

    /**
     * Rejects a module that is not a circom 2 witness calculator; returns whether it exports
     * {@code getSharedRWMemoryStart}.
     */
    public static boolean checkSupported(WasmModule module) {
        Set<String> functions = new HashSet<>();
        var exports = module.exportSection();
        for (int i = 0; i < exports.exportCount(); i++) {
            if (exports.getExport(i).exportType() == ExternalType.FUNCTION) {
                functions.add(exports.getExport(i).name());
            }
        }
        List<String> missing = REQUIRED.stream().filter(name -> !functions.contains(name)).toList();
        if (!missing.isEmpty()) {
            throw new WitnessException(WitnessException.Reason.INVALID_MODULE,
                    "not a circom 2 witness calculator (circom 1 and other wasm are not supported): missing exports "
                            + missing);
        }
        return functions.contains(SHARED_START);
    }

    /**
     * Address of the field element whose long form is the shared RW memory (its short value and type word lie in
     * the 8 bytes before it), or -1 where the module does not export {@code getSharedRWMemoryStart}.
     */
    public int sharedElement() {
        return sharedStart < 0 ? -1 : sharedStart - 8;
    }

    /** The instance's linear memory. */
    public Memory memory() {
        return instance.memory();
    }

    public int version() {
        return call("getVersion");
    }

    /** Field element size in 32-bit words (8 for both bn128 and BLS12-381 scalars). */
    public int n32() {
        return n32;
    }

    public int witnessSize() {
        return call("getWitnessSize");
    }

    /** Number of input field elements the circuit expects in total. */
    public int inputSize() {
        return call("getInputSize");
    }

    /** Starts a computation; {@code sanityCheck} makes the generated code check every signal access. */
    public void init(boolean sanityCheck) {
        instance.export("init").apply(sanityCheck ? 1 : 0);
    }

    /** Number of field elements of the input signal with this name hash, or a negative value if none. */
    public int inputSignalSize(long nameHash) {
        return (int) getInputSignalSize.apply(Fnv1a64.high(nameHash), Fnv1a64.low(nameHash))[0];
    }

    /** Sets element {@code index} of the input signal to the value in the shared RW memory. */
    public void setInputSignal(long nameHash, int index) {
        setInputSignal.apply(Fnv1a64.high(nameHash), Fnv1a64.low(nameHash), index);
    }

    /** Puts the prime into the shared RW memory. */
    public void loadRawPrime() {
        instance.export("getRawPrime").apply();
    }

    /** Puts witness value {@code index} into the shared RW memory. */
    public void loadWitness(int index) {
        getWitness.apply(index);
    }

    /** Copies the shared RW memory (n8 = 4·n32 bytes, little-endian) to {@code dst[offset..]}. */
    public void readShared(byte[] dst, int offset) {
        if (sharedStart >= 0) {
            Memory memory = instance.memory();
            for (int j = 0; j < n32; j++) {
                putWord(dst, offset + 4 * j, memory.readInt(sharedStart + 4 * j));
            }
            return;
        }
        for (int j = 0; j < n32; j++) {
            putWord(dst, offset + 4 * j, (int) readShared.apply(j)[0]);
        }
    }

    /** Writes n8 little-endian bytes from {@code src[offset..]} into the shared RW memory. */
    public void writeShared(byte[] src, int offset) {
        if (sharedStart >= 0) {
            instance.memory().write(sharedStart, src, offset, 4 * n32);
            return;
        }
        for (int j = 0; j < n32; j++) {
            int at = offset + 4 * j;
            int word = (src[at] & 0xff) | (src[at + 1] & 0xff) << 8 | (src[at + 2] & 0xff) << 16 | src[at + 3] << 24;
            writeShared.apply(j, word);
        }
    }

    private static void putWord(byte[] dst, int at, int word) {
        dst[at] = (byte) word;
        dst[at + 1] = (byte) (word >>> 8);
        dst[at + 2] = (byte) (word >>> 16);
        dst[at + 3] = (byte) (word >>> 24);
    }

    private int call(String export) {
        return (int) instance.export(export).apply()[0];
    }
}
