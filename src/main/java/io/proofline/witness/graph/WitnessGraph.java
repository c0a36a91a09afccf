package io.proofline.witness.graph;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.function.IntFunction;
import java.util.List;

/**
 * A circuit's witness computation as a straight-line program over field elements, recorded from one run of its wasm
 * ({@link GraphBuilder}): operators on Montgomery limbs in reused slots of one {@code long[]}, guards that check an
 * input takes the recorded path, and the outputs that write each witness value as it is computed. The program (code
 * and constants, {@link #programBytes()}) lives off the heap in a segment its owner provides and frees. Immutable and
 * shared; each {@link #evaluate} holds its own slots ({@link #evaluationBytes()}).
 */
public final class WitnessGraph {

    private static final ValueLayout.OfLong LIMB = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Opcodes at and above: a guard on the conversion {@code opcode - GUARD}. */
    static final int GUARD = 64;
    /** Opcode: write a witness value. */
    static final int OUT = 128;
    private static final int ADD = Op.ADD.ordinal();
    private static final int SUB = Op.SUB.ordinal();
    private static final int MUL = Op.MUL.ordinal();
    private static final Op[] OPS = Op.values();
    /** Instructions between two looks at the deadline and the interrupt flag. */
    private static final int CHECK_EVERY = 1 << 16;

    private final PrimeField field;
    private final int limbs;
    /** The code, 4 ints an instruction, then the constants' limbs from {@link #constantsAt}. */
    private final MemorySegment program;
    private final int codeLength;
    private final long constantsAt;
    private final int constantLongs;
    private final int[] inputSlots;
    private final int slots;
    private final int witnessSize;
    private final List<InputSignal> inputs;
    private final int operators;

    WitnessGraph(PrimeField field, int[] code, long[] constants, MemorySegment program, int[] inputSlots, int slots,
                 int witnessSize, List<InputSignal> inputs, int operators) {
        this.field = field;
        this.limbs = field.limbs();
        this.program = program;
        this.codeLength = code.length;
        this.constantsAt = programBytes(code.length, 0);
        this.constantLongs = constants.length;
        MemorySegment.copy(code, 0, program, ValueLayout.JAVA_INT, 0, code.length);
        MemorySegment.copy(constants, 0, program, ValueLayout.JAVA_LONG, constantsAt, constants.length);
        this.inputSlots = inputSlots;
        this.slots = slots;
        this.witnessSize = witnessSize;
        this.inputs = inputs;
        this.operators = operators;
    }

    /** Operators the program runs. */
    public int operators() {
        return operators;
    }

    /** Guards the program checks. */
    public int guards() {
        int guards = 0;
        for (int i = 0; i < codeLength; i += 4) {
            int op = program.get(ValueLayout.JAVA_INT, 4L * i);
            if (op >= GUARD && op < OUT) {
                guards++;
            }
        }
        return guards;
    }

    /** Bytes of the off-heap program: the code, then the constants 8-byte aligned. */
    public long programBytes() {
        return programBytes(codeLength, constantLongs);
    }

    static long programBytes(int codeInts, int constantLongs) {
        return (4L * codeInts + 7 & ~7L) + 8L * constantLongs;
    }

    /** Bytes one evaluation holds beside the witness it writes: its slots. */
    public long evaluationBytes() {
        return 8L * slots * limbs;
    }

    /** The recorded run's input signals, their values' places among the graph's inputs. */
    public List<InputSignal> inputs() {
        return inputs;
    }

    /** The number of input values the graph takes ({@link #evaluate}'s indices). */
    public int inputCount() {
        return inputSlots.length;
    }

    /**
     * Computes the witness for the input values in graph order ({@code inputValue(k)} for {@code k} below
     * {@link #inputCount()}: {@link #inputs()} says which signal's values go where) into {@code out}:
     * {@code witnessSize} canonical little-endian values of {@code 8 · limbs} bytes. Every input value is read before
     * the first output is written, so the inputs may live in {@code out}.
     *
     * @param deadlineNanos {@link System#nanoTime()} past which the evaluation stops with {@link DeadlineException},
     *                      or {@link Long#MAX_VALUE}
     * @throws GuardFailedException       the input takes another path than the recorded one
     * @throws UnsupportedOperandException an operand the wasm must handle
     */
    public void evaluate(IntFunction<BigInteger> inputValue, MemorySegment out, long deadlineNanos) {
        long[] v = new long[slots * limbs];
        MemorySegment.copy(program, ValueLayout.JAVA_LONG, constantsAt, v, 0, constantLongs);
        MemorySegment code = program;
        for (int k = 0; k < inputSlots.length; k++) {
            if (inputSlots[k] >= 0) {
                field.fromBigInteger(inputValue.apply(k), v, inputSlots[k]);
            }
        }
        CircomField circom = new CircomField(field);
        long[] unit = new long[limbs];
        unit[0] = 1;
        long[] canonical = new long[limbs];
        int n8 = 8 * limbs;
        long end = 4L * codeLength;
        for (long pc = 0; pc < end; pc += 16) {
            int op = code.get(ValueLayout.JAVA_INT, pc);
            int x = code.get(ValueLayout.JAVA_INT, pc + 4);
            int y = code.get(ValueLayout.JAVA_INT, pc + 8);
            int z = code.get(ValueLayout.JAVA_INT, pc + 12);
            if (op == MUL) {
                field.mul(v, y, v, z, v, x);
            } else if (op == ADD) {
                field.add(v, y, v, z, v, x);
            } else if (op == SUB) {
                field.sub(v, y, v, z, v, x);
            } else if (op == OUT) {
                field.mul(v, y, unit, 0, canonical, 0);
                writeLittleEndian(canonical, out, (long) x * n8);
            } else if (op >= GUARD) {
                int answer = circom.convert(OPS[op - GUARD], v, x, y);
                if (answer != z) {
                    throw new GuardFailedException(OPS[op - GUARD].wasmName() + " answered " + answer
                            + " where the recorded run got " + z);
                }
            } else {
                circom.apply(OPS[op], v, y, z, x);
            }
            if ((pc & (16L * CHECK_EVERY - 1)) == 0 && pc > 0) {
                checkDeadline(deadlineNanos);
            }
        }
    }

    private static void checkDeadline(long deadlineNanos) {
        if (Thread.currentThread().isInterrupted()) {
            throw new DeadlineException(true);
        }
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
            throw new DeadlineException(false);
        }
    }

    private void writeLittleEndian(long[] c, MemorySegment out, long at) {
        for (int i = 0; i < limbs; i++) {
            out.set(LIMB, at + 8L * i, c[i]);
        }
    }

    public int witnessSize() {
        return witnessSize;
    }

    public PrimeField field() {
        return field;
    }
}
