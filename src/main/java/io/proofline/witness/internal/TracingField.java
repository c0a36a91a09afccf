package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.Memory;
import io.proofline.witness.graph.CircomField;
import io.proofline.witness.graph.GraphBuilder;
import io.proofline.witness.graph.Op;

/**
 * The field imports recording a run into a {@link GraphBuilder}. An input-dependent value lives in linear memory as
 * a node reference ({@link FieldElements#writeNode}); a value computed from constants alone is computed here and
 * written as a plain element, leaving no node.
 *
 * <p>The shared element through which inputs enter ({@code stagingElement}) is the runtime's, not the circuit's: when
 * {@code setInputSignal} asks whether the value fits a short element ({@code Fr_toInt}, then {@code Fr_eqR}), the
 * answer is "no", so the value is copied as it is — the same value either way — and no guard is recorded on it.
 */
public final class TracingField implements FieldHost {

    private final GraphBuilder graph;
    private final CircomField circom;
    private final FieldElements elements;
    private final int limbs;
    private final int stagingElement;
    private final long[] v;
    private int handedOut = -1;

    public TracingField(GraphBuilder graph, int stagingElement) {
        this.graph = graph;
        this.circom = new CircomField(graph.field());
        this.elements = new FieldElements(graph.field());
        this.limbs = graph.limbs();
        this.stagingElement = stagingElement;
        this.v = new long[3 * limbs];
    }

    @Override
    public void operate(Op op, Memory memory, int r, int a, int b) {
        boolean nodes = FieldElements.isNode(memory, a) || (op.arity() == 2 && FieldElements.isNode(memory, b));
        if (!nodes) {
            elements.read(memory, a, v, 0);
            if (op.arity() == 2) {
                elements.read(memory, b, v, limbs);
            }
            circom.apply(op, v, 0, limbs, 2 * limbs);
            elements.writeMontgomery(memory, r, v, 2 * limbs);
            return;
        }
        int na = node(memory, a);
        int nb = op.arity() == 2 ? node(memory, b) : na;
        FieldElements.writeNode(memory, r, graph.operate(op, na, nb));
    }

    @Override
    public int convert(Op op, Memory memory, int a, int b) {
        if (a == stagingElement || (op.arity() == 2 && b == stagingElement)) {
            return 0;
        }
        boolean nodes = FieldElements.isNode(memory, a) || (op.arity() == 2 && FieldElements.isNode(memory, b));
        if (!nodes) {
            elements.read(memory, a, v, 0);
            if (op.arity() == 2) {
                elements.read(memory, b, v, limbs);
            }
            return circom.convert(op, v, 0, limbs);
        }
        int na = node(memory, a);
        return graph.convert(op, na, op.arity() == 2 ? node(memory, b) : na);
    }

    @Override
    public void toLongNormal(Memory memory, int a) {
        handedOut = node(memory, a);
    }

    /** The node of the value last handed out by {@code Fr_toLongNormal}. */
    public int handedOut() {
        return handedOut;
    }

    /** The node of the element at {@code address}: its reference, or the constant it holds. */
    private int node(Memory memory, int address) {
        if (FieldElements.isNode(memory, address)) {
            return FieldElements.node(memory, address);
        }
        elements.read(memory, address, v, 0);
        return graph.constant(java.util.Arrays.copyOf(v, limbs));
    }
}
