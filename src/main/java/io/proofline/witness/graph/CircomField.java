package io.proofline.witness.graph;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;

/**
 * circom's operators with the exact semantics of the field code in its wasm ({@code Fr_*}), on elements in this
 * project's Montgomery form ({@link PrimeField}, 4 limbs). Values are read as circom reads them: a field element
 * {@code x} in {@code [0, p)}, signed as {@code x - p} above {@code (p - 1) / 2} for comparisons and integer
 * conversion, and as its canonical bits for bitwise operators and shifts (results masked to the modulus's bit length,
 * then reduced once). An operand whose semantics the wasm leaves to chance (integer division by zero) is refused
 * with {@link UnsupportedOperandException}: the caller lets the wasm compute that witness.
 *
 * <p>Holds scratch space: one instance per thread.
 */
public final class CircomField {

    private final PrimeField field;
    private final int limbs;
    private final BigInteger p;
    private final BigInteger half;
    private final int bits;
    private final BigInteger mask;
    private final long[] one;
    private final long[] zero;
    private final long[] t;

    public CircomField(PrimeField field) {
        this.field = field;
        this.limbs = field.limbs();
        this.p = field.modulus();
        this.half = p.shiftRight(1);
        this.bits = p.bitLength();
        this.mask = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
        this.one = field.montgomeryOne();
        this.zero = new long[limbs];
        this.t = new long[limbs];
    }

    public PrimeField field() {
        return field;
    }

    /** {@code v[r..] = op(v[a..], v[b..])} for an operator (b is ignored for unary ones); r may alias a or b. */
    public void apply(Op op, long[] v, int a, int b, int r) {
        switch (op) {
            case ADD -> field.add(v, a, v, b, v, r);
            case SUB -> field.sub(v, a, v, b, v, r);
            case MUL -> field.mul(v, a, v, b, v, r);
            case NEG -> field.neg(v, a, v, r);
            case DIV -> divide(v, a, b, r);
            case INV -> invert(v, a, r);
            case POW -> field.pow(v, a, canonical(v, b), v, r);
            case IDIV -> set(v, r, canonical(v, a).divide(nonZeroDivisor(v, b)));
            case MOD -> set(v, r, canonical(v, a).mod(nonZeroDivisor(v, b)));
            case SHL -> set(v, r, shift(canonical(v, a), canonical(v, b), true));
            case SHR -> set(v, r, shift(canonical(v, a), canonical(v, b), false));
            case BAND -> set(v, r, adjust(canonical(v, a).and(canonical(v, b))));
            case BOR -> set(v, r, adjust(canonical(v, a).or(canonical(v, b))));
            case BXOR -> set(v, r, adjust(canonical(v, a).xor(canonical(v, b))));
            case BNOT -> set(v, r, adjust(canonical(v, a).xor(mask)));
            case LT -> bool(v, r, compare(v, a, b) < 0);
            case GT -> bool(v, r, compare(v, a, b) > 0);
            case LEQ -> bool(v, r, compare(v, a, b) <= 0);
            case GEQ -> bool(v, r, compare(v, a, b) >= 0);
            case EQ -> bool(v, r, field.equal(v, a, v, b));
            case NEQ -> bool(v, r, !field.equal(v, a, v, b));
            case LAND -> bool(v, r, !field.isZero(v, a) && !field.isZero(v, b));
            case LOR -> bool(v, r, !field.isZero(v, a) || !field.isZero(v, b));
            case LNOT -> bool(v, r, field.isZero(v, a));
            case IS_TRUE, TO_INT, EQ_R -> throw new IllegalArgumentException(op + " is a conversion");
        }
    }

    /** The i32 a conversion answers the wasm. */
    public int convert(Op op, long[] v, int a, int b) {
        return switch (op) {
            case IS_TRUE -> field.isZero(v, a) ? 0 : 1;
            case EQ_R -> field.equal(v, a, v, b) ? 1 : 0;
            case TO_INT -> {
                BigInteger x = canonical(v, a);
                yield x.compareTo(half) > 0 ? -p.subtract(x).intValue() : x.intValue();
            }
            default -> throw new IllegalArgumentException(op + " is not a conversion");
        };
    }

    /** circom's {@code a / b}: {@code a · b⁻¹}, and 0 where b = 0 (its inverse of 0 is 0). */
    private void divide(long[] v, int a, int b, int r) {
        if (field.isZero(v, b)) {
            System.arraycopy(zero, 0, v, r, limbs);
            return;
        }
        field.inv(v, b, t, 0);
        field.mul(v, a, t, 0, v, r);
    }

    private void invert(long[] v, int a, int r) {
        if (field.isZero(v, a)) {
            System.arraycopy(zero, 0, v, r, limbs);
            return;
        }
        field.inv(v, a, v, r);
    }

    private BigInteger nonZeroDivisor(long[] v, int b) {
        BigInteger divisor = canonical(v, b);
        if (divisor.signum() == 0) {
            throw new UnsupportedOperandException("integer division by zero");
        }
        return divisor;
    }

    /**
     * circom's {@code <<} and {@code >>}: a negative amount (above {@code (p - 1) / 2}) shifts the other way; an amount
     * of the modulus's bit length or more gives 0; a left shift is masked to the bit length and reduced once.
     */
    private BigInteger shift(BigInteger x, BigInteger amount, boolean left) {
        boolean negative = amount.compareTo(half) > 0;
        BigInteger k = negative ? p.subtract(amount) : amount;
        if (k.compareTo(BigInteger.valueOf(bits)) >= 0) {
            return BigInteger.ZERO;
        }
        int n = k.intValue();
        return left != negative ? adjust(x.shiftLeft(n)) : x.shiftRight(n);
    }

    /** circom's {@code Fr_adjustBinResult}: keep the modulus's bit length, then subtract p once if still ≥ p. */
    private BigInteger adjust(BigInteger x) {
        BigInteger masked = x.and(mask);
        return masked.compareTo(p) >= 0 ? masked.subtract(p) : masked;
    }

    private int compare(long[] v, int a, int b) {
        return signed(canonical(v, a)).compareTo(signed(canonical(v, b)));
    }

    private BigInteger signed(BigInteger x) {
        return x.compareTo(half) > 0 ? x.subtract(p) : x;
    }

    private void bool(long[] v, int r, boolean value) {
        System.arraycopy(value ? one : zero, 0, v, r, limbs);
    }

    private BigInteger canonical(long[] v, int a) {
        return field.toBigInteger(v, a);
    }

    private void set(long[] v, int r, BigInteger x) {
        field.fromBigInteger(x, v, r);
    }
}
