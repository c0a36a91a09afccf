package io.proofline.witness.graph;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Records one run of a circuit's field code as a witness graph. Each value the circuit computes from its inputs
 * becomes a node, computed here as it is recorded (so the run goes on with real values); values computed from
 * constants alone stay constants and leave no node. Each conversion of an input-dependent value to an i32 (a branch,
 * an index) becomes a guard holding the answer it gave: the graph is the circuit for exactly the inputs that give
 * every guard the same answer.
 *
 * <p>Bounded: past {@code maxNodes} nodes recording stops with {@link GraphTooLargeException}.
 */
public final class GraphBuilder {

    /** Node kinds below {@link Op#values()}'s ordinals are operators; these are the leaves. */
    static final int CONSTANT = -1;
    static final int INPUT = -2;

    private final CircomField circom;
    private final int limbs;
    private final long maxNodes;
    private int count;
    private int[] kind = new int[1024];
    private int[] first = new int[1024];
    private int[] second = new int[1024];
    /** Node values, {@code limbs} longs each, Montgomery form. */
    private long[] values;
    private final Map<ValueKey, Integer> constants = new HashMap<>();
    private final IntList guards = new IntList();
    private final IntList inputNodes = new IntList();
    private int[] witness = new int[0];

    public GraphBuilder(PrimeField field, long maxNodes) {
        this.circom = new CircomField(field);
        this.limbs = field.limbs();
        this.maxNodes = maxNodes;
        this.values = new long[1024 * limbs];
    }

    public PrimeField field() {
        return circom.field();
    }

    public int limbs() {
        return limbs;
    }

    /** The node of a constant (one node per distinct value). */
    public int constant(long[] montgomery) {
        ValueKey key = new ValueKey(montgomery.clone());
        Integer node = constants.get(key);
        if (node == null) {
            node = add(CONSTANT, 0, 0);
            System.arraycopy(montgomery, 0, values, node * limbs, limbs);
            constants.put(key, node);
        }
        return node;
    }

    /** A new input node: the next input value in the order the run set them. */
    public int input(long[] montgomery) {
        int node = add(INPUT, inputNodes.size(), 0);
        System.arraycopy(montgomery, 0, values, node * limbs, limbs);
        inputNodes.add(node);
        return node;
    }

    /** Copies node's value (Montgomery limbs) to {@code dst[offset..]}. */
    public void value(int node, long[] dst, int offset) {
        System.arraycopy(values, node * limbs, dst, offset, limbs);
    }

    /**
     * Records an operator on two nodes (b ignored for unary ones), at least one of them not a constant (the caller
     * computes operators on constants itself: they leave no node), and computes its value.
     */
    public int operate(Op op, int a, int b) {
        if (op.isConversion()) {
            throw new IllegalArgumentException(op + " is a conversion");
        }
        int bb = op.arity() == 1 ? a : b;
        int node = add(op.ordinal(), a, bb);
        circom.apply(op, values, a * limbs, bb * limbs, node * limbs);
        return node;
    }

    /** Answers a conversion of nodes, at least one not a constant, and records the answer as a guard. */
    public int convert(Op op, int a, int b) {
        int bb = op.arity() == 1 ? a : b;
        int answer = circom.convert(op, values, a * limbs, bb * limbs);
        guards.add(count);
        guards.add(op.ordinal());
        guards.add(a);
        guards.add(bb);
        guards.add(answer);
        return answer;
    }

    /** Witness value {@code index} is node's value. */
    public void witness(int index, int node) {
        if (index >= witness.length) {
            int[] grown = new int[Math.max(index + 1, witness.length * 2)];
            Arrays.fill(grown, witness.length, grown.length, -1);
            System.arraycopy(witness, 0, grown, 0, witness.length);
            witness = grown;
        }
        witness[index] = node;
    }

    /**
     * The graph of what was recorded: only nodes that a witness value or a guard needs, in recorded order.
     *
     * @param memory gives the program's off-heap segment of the bytes asked (or throws {@link GraphTooLargeException})
     */
    public WitnessGraph build(int witnessSize, List<InputSignal> inputs, LongFunction<MemorySegment> memory) {
        for (int i = 0; i < witnessSize; i++) {
            if (i >= witness.length || witness[i] < 0) {
                throw new IllegalStateException("witness value " + i + " was not recorded");
            }
        }
        return new GraphCompiler(circom.field(), count, kind, first, second, values, guards.toArray(),
                inputNodes.toArray(), Arrays.copyOf(witness, witnessSize), inputs).compile(memory);
    }

    private int add(int k, int a, int b) {
        if (count >= maxNodes) {
            throw new GraphTooLargeException("the witness graph passed the limit of " + maxNodes + " nodes");
        }
        if (count == kind.length) {
            int n = count * 2;
            kind = Arrays.copyOf(kind, n);
            first = Arrays.copyOf(first, n);
            second = Arrays.copyOf(second, n);
        }
        if ((count + 1) * limbs > values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        kind[count] = k;
        first[count] = a;
        second[count] = b;
        return count++;
    }

    private record ValueKey(long[] limbs) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ValueKey k && Arrays.equals(limbs, k.limbs);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(limbs);
        }
    }
}
