package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.Memory;
import io.proofline.algebra.field.PrimeField;
import io.proofline.witness.graph.CircomField;
import io.proofline.witness.graph.Op;

/** The field imports computing on the host: elements read from linear memory, results written back. */
public final class DirectField implements FieldHost {

    private final CircomField circom;
    private final FieldElements elements;
    private final int limbs;
    /** Operands at 0 and limbs, the result at 2·limbs. */
    private final long[] v;

    public DirectField(PrimeField field) {
        this.circom = new CircomField(field);
        this.elements = new FieldElements(field);
        this.limbs = field.limbs();
        this.v = new long[3 * limbs];
    }

    @Override
    public void operate(Op op, Memory memory, int r, int a, int b) {
        elements.read(memory, a, v, 0);
        if (op.arity() == 2) {
            elements.read(memory, b, v, limbs);
        }
        circom.apply(op, v, 0, limbs, 2 * limbs);
        elements.writeMontgomery(memory, r, v, 2 * limbs);
    }

    @Override
    public int convert(Op op, Memory memory, int a, int b) {
        elements.read(memory, a, v, 0);
        if (op.arity() == 2) {
            elements.read(memory, b, v, limbs);
        }
        return circom.convert(op, v, 0, limbs);
    }

    @Override
    public void toLongNormal(Memory memory, int a) {
        elements.read(memory, a, v, 0);
        elements.writeNormal(memory, a, v, 0);
    }
}
