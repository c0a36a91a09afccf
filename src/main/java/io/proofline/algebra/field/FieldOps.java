package io.proofline.algebra.field;

/**
 * Arithmetic on field elements stored as runs of {@code width()} longs inside {@code long[]} arrays (an element is
 * addressed by array and offset, so vectors and points are flat arrays with no object per element).
 *
 * <p>Implementations for extension fields keep scratch space and are therefore <b>not thread-safe</b>: obtain one per
 * thread. {@link PrimeField} itself is stateless and may be shared. In every method the output may alias an input.
 */
public interface FieldOps {

    /** Number of longs per element. */
    int width();

    void mul(long[] a, int ao, long[] b, int bo, long[] r, int ro);

    void sqr(long[] a, int ao, long[] r, int ro);

    void add(long[] a, int ao, long[] b, int bo, long[] r, int ro);

    void sub(long[] a, int ao, long[] b, int bo, long[] r, int ro);

    void neg(long[] a, int ao, long[] r, int ro);

    /** r = a⁻¹; throws {@link ArithmeticException} for zero. */
    void inv(long[] a, int ao, long[] r, int ro);

    boolean isZero(long[] a, int ao);

    void setZero(long[] r, int ro);

    void setOne(long[] r, int ro);

    default void dbl(long[] a, int ao, long[] r, int ro) {
        add(a, ao, a, ao, r, ro);
    }

    default void copy(long[] a, int ao, long[] r, int ro) {
        System.arraycopy(a, ao, r, ro, width());
    }

    default boolean equal(long[] a, int ao, long[] b, int bo) {
        for (int i = 0; i < width(); i++) {
            if (a[ao + i] != b[bo + i]) {
                return false;
            }
        }
        return true;
    }

    default boolean isOne(long[] a, int ao) {
        long[] one = new long[width()];
        setOne(one, 0);
        return equal(a, ao, one, 0);
    }
}
