package io.proofline.witness;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tiny wasm modules with the exports and imports of a circom 2 witness calculator, assembled here byte by byte (no
 * wat2wasm on the build machines): a harmless default for every export, and one export's body replaced by hostile
 * code. The harmless module "computes" a one-value witness over a zero prime with no inputs.
 */
public final class HostileWasm {

    // value types and opcodes of the wasm binary format (https://webassembly.github.io/spec/core/binary/)
    private static final int I32 = 0x7f;
    private static final int VOID = 0x40;
    private static final int UNREACHABLE = 0x00;
    private static final int LOOP = 0x03;
    private static final int BR = 0x0c;
    private static final int BR_IF = 0x0d;
    private static final int END = 0x0b;
    private static final int CALL = 0x10;
    private static final int GLOBAL_GET = 0x23;
    private static final int GLOBAL_SET = 0x24;
    private static final int I32_CONST = 0x41;
    private static final int I32_EQZ = 0x45;
    private static final int I32_NE = 0x47;
    private static final int I32_MUL = 0x6c;
    private static final int MEMORY_GROW = 0x40;
    private static final int LOCAL_GET = 0x20;
    private static final int I32_LOAD = 0x28;
    private static final int I32_SHL = 0x74;

    /** Function types: params → results. */
    private static final int[][][] TYPES = {
            {{}, {I32}},            // 0: () → i32
            {{}, {}},               // 1: () → ()
            {{I32}, {}},            // 2: (i32) → ()
            {{I32, I32}, {I32}},    // 3: (i32, i32) → i32
            {{I32, I32, I32}, {}},  // 4: (i32, i32, i32) → ()
            {{I32}, {I32}},         // 5: (i32) → i32
            {{I32, I32}, {}},       // 6: (i32, i32) → ()
    };
    /** Function index 0 is the import {@code runtime.writeBufferMessage}; the exports follow from index 1. */
    private static final int WRITE_BUFFER_MESSAGE = 0;

    /** Export name → its type and harmless body. */
    private static final Map<String, Object[]> EXPORTS = new LinkedHashMap<>();

    static {
        EXPORTS.put("getVersion", new Object[] {0, constant(2)});
        EXPORTS.put("getFieldNumLen32", new Object[] {0, constant(8)});
        EXPORTS.put("getRawPrime", new Object[] {1, code(END)});
        EXPORTS.put("getWitnessSize", new Object[] {0, constant(1)});
        EXPORTS.put("getInputSize", new Object[] {0, constant(0)});
        EXPORTS.put("init", new Object[] {2, code(END)});
        EXPORTS.put("getInputSignalSize", new Object[] {3, constant(0)});
        EXPORTS.put("setInputSignal", new Object[] {4, code(END)});
        EXPORTS.put("readSharedRWMemory", new Object[] {5, constant(0)});
        EXPORTS.put("writeSharedRWMemory", new Object[] {6, code(END)});
        EXPORTS.put("getWitness", new Object[] {2, code(END)});
        // "A", then the terminating 0, then "A" again: a global toggles between the two
        EXPORTS.put("getMessageChar", new Object[] {0, code(GLOBAL_GET, 0, I32_EQZ, GLOBAL_SET, 0,
                GLOBAL_GET, 0, I32_CONST, 0xc1, 0x00, I32_MUL, END)}); // 65 as signed LEB128
    }

    private HostileWasm() {
    }

    /** The harmless module. */
    public static byte[] harmless() {
        return module(Map.of(), 1);
    }

    /** {@code export} loops for ever (for a function returning i32, {@code unreachable} closes the body). */
    public static byte[] loopsIn(String export) {
        return module(Map.of(export, code(LOOP, VOID, BR, 0, END, UNREACHABLE, END)), 1);
    }

    /** {@code export} grows the memory a page at a time until it is refused, then traps. */
    public static byte[] growsMemoryIn(String export) {
        return module(Map.of(export, code(LOOP, VOID, I32_CONST, 1, MEMORY_GROW, 0, I32_CONST, 0x7f, I32_NE, BR_IF, 0,
                END, UNREACHABLE, END)), 1);
    }

    /** A module that declares {@code pages} of initial memory. */
    public static byte[] declaresMemory(int pages) {
        return module(Map.of(), pages);
    }

    /** {@code export} calls {@code runtime.writeBufferMessage} for ever: a log of "A A A ...". */
    public static byte[] floodsTheLogIn(String export) {
        return module(Map.of(export, code(LOOP, VOID, CALL, WRITE_BUFFER_MESSAGE, BR, 0, END, UNREACHABLE, END)), 1);
    }

    /**
     * A module that loads as a circom witness calculator of {@code witnessSize} values over {@code prime} (8 words;
     * it is registered beside a real zkey of that shape), and whose every witness computation prints {@code "A A A
     * ..."} until the service's log limit stops it: each failed job carries the most log a computation may print.
     */
    public static byte[] printsItsMostLogThenFails(BigInteger prime, int witnessSize) {
        byte[] littleEndian = new byte[32];
        byte[] big = prime.toByteArray();
        for (int i = 0; i < big.length && i < 32; i++) {
            littleEndian[i] = big[big.length - 1 - i];
        }
        Map<String, byte[]> overrides = new LinkedHashMap<>();
        // readSharedRWMemory(i): the i-th little-endian word of the prime, from the data segment at address 0
        overrides.put("readSharedRWMemory", code(LOCAL_GET, 0, I32_CONST, 2, I32_SHL, I32_LOAD, 2, 0, END));
        overrides.put("getWitnessSize", concat(new int[] {I32_CONST}, signedLeb(witnessSize), new int[] {END}));
        overrides.put("init", code(LOOP, VOID, CALL, WRITE_BUFFER_MESSAGE, BR, 0, END, END));
        return module(overrides, 1, littleEndian);
    }

    /** {@code getFieldNumLen32} answers 2^31 − 1, which circom's JS would use to size buffers. */
    public static byte[] hugeFieldSize() {
        return module(Map.of("getFieldNumLen32", code(I32_CONST, 0xff, 0xff, 0xff, 0xff, 0x07, END)), 1);
    }

    private static int[] signedLeb(int value) {
        java.util.List<Integer> bytes = new java.util.ArrayList<>();
        int v = value;
        while (true) {
            int b = v & 0x7f;
            v >>= 7;
            boolean done = v == 0 && (b & 0x40) == 0 || v == -1 && (b & 0x40) != 0;
            bytes.add(done ? b : b | 0x80);
            if (done) {
                return bytes.stream().mapToInt(Integer::intValue).toArray();
            }
        }
    }

    private static byte[] concat(int[]... parts) {
        return code(java.util.Arrays.stream(parts).flatMapToInt(java.util.Arrays::stream).toArray());
    }

    private static byte[] constant(int smallValue) {
        return code(I32_CONST, smallValue, END);
    }

    private static byte[] code(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return b;
    }

    private static byte[] module(Map<String, byte[]> overrides, int memoryPages) {
        return module(overrides, memoryPages, null);
    }

    /** The module, with {@code data} (if any) at address 0 of its memory. */
    private static byte[] module(Map<String, byte[]> overrides, int memoryPages, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00});

        Bytes types = new Bytes().u32(TYPES.length);
        for (int[][] type : TYPES) {
            types.raw(0x60).u32(type[0].length).raw(type[0]).u32(type[1].length).raw(type[1]);
        }
        section(out, 1, types);
        section(out, 2, new Bytes().u32(1).name("runtime").name("writeBufferMessage").raw(0x00).u32(1));
        Bytes functions = new Bytes().u32(EXPORTS.size());
        EXPORTS.values().forEach(e -> functions.u32((int) e[0]));
        section(out, 3, functions);
        section(out, 5, new Bytes().u32(1).raw(0x00).u32(memoryPages));
        section(out, 6, new Bytes().u32(1).raw(I32, 0x01, I32_CONST, 0, END));
        Bytes exports = new Bytes().u32(EXPORTS.size());
        int index = 1;
        for (String name : EXPORTS.keySet()) {
            exports.name(name).raw(0x00).u32(index++);
        }
        section(out, 7, exports);
        Bytes code = new Bytes().u32(EXPORTS.size());
        for (Map.Entry<String, Object[]> e : EXPORTS.entrySet()) {
            byte[] body = overrides.getOrDefault(e.getKey(), (byte[]) e.getValue()[1]);
            code.u32(body.length + 1).raw(0x00).bytes(body); // no locals
        }
        section(out, 10, code);
        if (data != null) {
            section(out, 11, new Bytes().u32(1).raw(0x00, I32_CONST, 0, END).u32(data.length).bytes(data));
        }
        if (!EXPORTS.keySet().containsAll(overrides.keySet())) {
            throw new IllegalArgumentException("no export among " + overrides.keySet() + " in " + List.copyOf(EXPORTS.keySet()));
        }
        return out.toByteArray();
    }

    private static void section(ByteArrayOutputStream out, int id, Bytes content) {
        byte[] body = content.out.toByteArray();
        out.write(id);
        out.writeBytes(new Bytes().u32(body.length).out.toByteArray());
        out.writeBytes(body);
    }

    private static final class Bytes {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes u32(int value) { // unsigned LEB128
            int v = value;
            do {
                int b = v & 0x7f;
                v >>>= 7;
                out.write(v == 0 ? b : b | 0x80);
            } while (v != 0);
            return this;
        }

        Bytes raw(int... values) {
            for (int v : values) {
                out.write(v);
            }
            return this;
        }

        Bytes bytes(byte[] values) {
            out.writeBytes(values);
            return this;
        }

        Bytes name(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            return u32(utf8.length).bytes(utf8);
        }
    }
}
