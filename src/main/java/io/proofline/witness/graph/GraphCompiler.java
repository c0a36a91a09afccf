package io.proofline.witness.graph;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Turns recorded nodes into a {@link WitnessGraph}'s program: drops nodes that no witness value or guard needs, places
 * each guard and each witness output right after the node it waits for (a guard fails as early as it can), and gives
 * values slots that are reused once their last reader has run, so an evaluation holds only the values still needed.
 */
final class GraphCompiler {

    private final PrimeField field;
    private final int limbs;
    private final int count;
    private final int[] kind;
    private final int[] first;
    private final int[] second;
    private final long[] values;
    private final int[] guards;
    private final int[] inputNodes;
    private final int[] witness;
    private final List<InputSignal> inputs;

    GraphCompiler(PrimeField field, int count, int[] kind, int[] first, int[] second, long[] values, int[] guards,
                  int[] inputNodes, int[] witness, List<InputSignal> inputs) {
        this.field = field;
        this.limbs = field.limbs();
        this.count = count;
        this.kind = kind;
        this.first = first;
        this.second = second;
        this.values = values;
        this.guards = guards;
        this.inputNodes = inputNodes;
        this.witness = witness;
        this.inputs = List.copyOf(inputs);
    }

    private int maxSlot = -1;
    private int liveOperators;

    /** @param memory gives the off-heap segment for the program, of the bytes asked */
    WitnessGraph compile(LongFunction<MemorySegment> memory) {
        boolean[] live = liveNodes();
        IntList program = schedule(live);
        int[] slot = new int[count];
        Arrays.fill(slot, -1);
        int constantSlots = 0;
        for (int n = 0; n < count; n++) {
            if (live[n] && kind[n] == GraphBuilder.CONSTANT) {
                slot[n] = constantSlots++;
            }
        }
        long[] constants = new long[constantSlots * limbs];
        for (int n = 0; n < count; n++) {
            if (slot[n] >= 0) {
                System.arraycopy(values, n * limbs, constants, slot[n] * limbs, limbs);
            }
        }
        int[] inputSlots = new int[inputNodes.length];
        int[] code = allocate(program, live, slot, constantSlots, inputSlots);
        int slots = Math.max(constantSlots, maxSlot + 1);
        MemorySegment segment = memory.apply(WitnessGraph.programBytes(code.length, constants.length));
        return new WitnessGraph(field, code, constants, segment, inputSlots, slots, witness.length, inputs,
                liveOperators);
    }

    private boolean[] liveNodes() {
        boolean[] live = new boolean[count];
        for (int node : witness) {
            live[node] = true;
        }
        for (int g = 0; g < guards.length; g += 5) {
            live[guards[g + 2]] = true;
            live[guards[g + 3]] = true;
        }
        for (int n = count - 1; n >= 0; n--) {
            if (live[n] && kind[n] >= 0) {
                live[first[n]] = true;
                live[second[n]] = true;
                liveOperators++;
            }
        }
        return live;
    }

    /**
     * The program over node ids, 4 ints an instruction: operators {@code [op, node, a, b]}, guards
     * {@code [GUARD + op, a, b, answer]}, outputs {@code [OUT, index, node, 0]}.
     */
    private IntList schedule(boolean[] live) {
        int[][] guardsAt = attach(guardOwners(), guards.length / 5);
        int[] outOwners = witness.clone();
        int[][] outsAt = attach(outOwners, witness.length);
        IntList program = new IntList();
        for (int n = 0; n < count; n++) {
            if (live[n] && kind[n] >= 0) {
                emit(program, kind[n], n, first[n], second[n]);
            }
            for (int g : guardsAt[n]) {
                int at = 5 * g;
                emit(program, WitnessGraph.GUARD + guards[at + 1], guards[at + 2], guards[at + 3], guards[at + 4]);
            }
            for (int i : outsAt[n]) {
                emit(program, WitnessGraph.OUT, i, n, 0);
            }
        }
        return program;
    }

    private int[] guardOwners() {
        int[] owners = new int[guards.length / 5];
        for (int g = 0; g < owners.length; g++) {
            owners[g] = Math.max(guards[5 * g + 2], guards[5 * g + 3]);
        }
        return owners;
    }

    /** For each node, the items whose owner it is, in item order. */
    private int[][] attach(int[] owners, int items) {
        int[] sizes = new int[count];
        for (int i = 0; i < items; i++) {
            sizes[owners[i]]++;
        }
        int[][] at = new int[count][];
        for (int n = 0; n < count; n++) {
            at[n] = new int[sizes[n]];
        }
        int[] filled = new int[count];
        for (int i = 0; i < items; i++) {
            at[owners[i]][filled[owners[i]]++] = i;
        }
        return at;
    }

    private static void emit(IntList program, int op, int x, int y, int z) {
        program.add(op);
        program.add(x);
        program.add(y);
        program.add(z);
    }

    /** Gives every node a slot (constants the first ones, fixed) and rewrites the program onto slot offsets. */
    private int[] allocate(IntList program, boolean[] live, int[] slot, int constantSlots, int[] inputSlots) {
        int instructions = program.size() / 4;
        int[] lastUse = new int[count];
        for (int i = 0; i < instructions; i++) {
            for (int node : readNodes(program, i)) {
                lastUse[node] = i;
            }
        }
        IntList free = new IntList();
        maxSlot = constantSlots - 1;
        for (int k = 0; k < inputNodes.length; k++) {
            int node = inputNodes[k];
            slot[node] = live[node] ? take(free) : -1;
            inputSlots[k] = live[node] ? slot[node] * limbs : -1;
        }
        int[] code = new int[program.size()];
        for (int i = 0; i < instructions; i++) {
            int at = 4 * i;
            int op = program.get(at);
            int[] read = readNodes(program, i);
            code[at] = op;
            if (op == WitnessGraph.OUT) {
                code[at + 1] = program.get(at + 1);
                code[at + 2] = slot[program.get(at + 2)] * limbs;
            } else if (op >= WitnessGraph.GUARD) {
                code[at + 1] = slot[program.get(at + 1)] * limbs;
                code[at + 2] = slot[program.get(at + 2)] * limbs;
                code[at + 3] = program.get(at + 3);
            } else {
                code[at + 2] = slot[program.get(at + 2)] * limbs;
                code[at + 3] = slot[program.get(at + 3)] * limbs;
            }
            for (int node : read) {
                if (lastUse[node] == i && kind[node] != GraphBuilder.CONSTANT && slot[node] >= 0) {
                    free.add(slot[node]);
                    slot[node] = -slot[node] - 2; // freed: no second release
                }
            }
            if (op < WitnessGraph.GUARD) {
                int node = program.get(at + 1);
                slot[node] = take(free);
                code[at + 1] = slot[node] * limbs;
            }
        }
        return code;
    }

    /** A freed slot if there is one, else a new one. */
    private int take(IntList free) {
        if (free.size() > 0) {
            return free.removeLast();
        }
        return ++maxSlot;
    }

    private static int[] readNodes(IntList program, int i) {
        int at = 4 * i;
        int op = program.get(at);
        if (op == WitnessGraph.OUT) {
            return new int[] {program.get(at + 2)};
        }
        if (op >= WitnessGraph.GUARD) {
            return new int[] {program.get(at + 1), program.get(at + 2)};
        }
        return new int[] {program.get(at + 2), program.get(at + 3)};
    }
}
