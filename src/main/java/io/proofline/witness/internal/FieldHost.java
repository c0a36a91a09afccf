package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.Memory;
import io.proofline.witness.graph.Op;

/** What a {@link HostFieldModule}'s field imports do, for one computation. */
public interface FieldHost {

    /** An operator: the element at {@code r} = op(element at {@code a}, element at {@code b}); b unused when unary. */
    void operate(Op op, Memory memory, int r, int a, int b);

    /** A conversion's i32 answer for the element(s) at {@code a} (and {@code b}). */
    int convert(Op op, Memory memory, int a, int b);

    /** {@code Fr_toLongNormal}: the element at {@code a} handed out as a witness value (or a logged value). */
    void toLongNormal(Memory memory, int a);
}
