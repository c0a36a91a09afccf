package io.proofline.witness.graph;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The field functions of a circom 2 witness calculator that a witness graph records, by the name circom's wasm gives
 * them ({@code Fr_add}, ...: the module's name section). Operators take field elements and give one; conversions
 * ({@link #isConversion()}) give the wasm an i32 — a branch, a loop bound, an index — so a graph keeps the value each
 * gave when it was recorded as a guard.
 */
public enum Op {
    ADD("Fr_add", 2), SUB("Fr_sub", 2), MUL("Fr_mul", 2), NEG("Fr_neg", 1), DIV("Fr_div", 2), INV("Fr_inv", 1),
    POW("Fr_pow", 2), IDIV("Fr_idiv", 2), MOD("Fr_mod", 2),
    SHL("Fr_shl", 2), SHR("Fr_shr", 2), BAND("Fr_band", 2), BOR("Fr_bor", 2), BXOR("Fr_bxor", 2), BNOT("Fr_bnot", 1),
    LT("Fr_lt", 2), GT("Fr_gt", 2), LEQ("Fr_leq", 2), GEQ("Fr_geq", 2), EQ("Fr_eq", 2), NEQ("Fr_neq", 2),
    LAND("Fr_land", 2), LOR("Fr_lor", 2), LNOT("Fr_lnot", 1),
    /** Conversion: 1 when the element is not zero (every {@code if}, loop condition and {@code assert}). */
    IS_TRUE("Fr_isTrue", 1),
    /** Conversion: the element as a signed 32-bit integer (indexes and bounds computed from field values). */
    TO_INT("Fr_toInt", 1),
    /** Conversion: 1 when the elements are equal (the runtime's check whether an input fits a short element). */
    EQ_R("Fr_eqR", 2);

    private static final Map<String, Op> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(Op::wasmName, Function.identity()));

    private final String wasmName;
    private final int arity;

    Op(String wasmName, int arity) {
        this.wasmName = wasmName;
        this.arity = arity;
    }

    /** The function's name in circom's wasm. */
    public String wasmName() {
        return wasmName;
    }

    /** 1 or 2 field operands. */
    public int arity() {
        return arity;
    }

    /** Whether the function answers the wasm an i32 rather than writing an element. */
    public boolean isConversion() {
        return this == IS_TRUE || this == TO_INT || this == EQ_R;
    }

    public static Optional<Op> byWasmName(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }
}
