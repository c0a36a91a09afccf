package io.proofline.snark.setup;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.poly.ParallelRange;
import io.proofline.snark.SegmentLimbs;

import java.lang.foreign.MemorySegment;

/**
 * Fixed-base scalar multiplication {@code k·G} for one base and many scalars, by the windowed method with a
 * precomputed table: with window {@code c} and {@code W = ⌈bits/c⌉} windows the table holds {@code d·2^(c·i)·G} for
 * every window {@code i} and digit {@code 1 ≤ d < 2^c}, affine. Then {@code k·G = Σᵢ table[i][digitᵢ(k)]}: at most
 * {@code W} mixed additions (madd-2007-bl, 7M + 4S) and no doubling per scalar.
 *
 * <p>Building costs {@code W·2^c} additions and one batch inversion per window; it pays off for many scalars (the
 * {@link #windowFor} rule keeps it near 1/16 of the multiplication work).
 */
final class FixedBaseTable {

    private final CurveGroup group;
    private final int window;
    private final int windows;
    private final int pointWidth;
    /** windows × (2^c − 1) affine points; entry (i, d) at ((i·(2^c − 1)) + d − 1)·pointWidth. */
    private final long[] table;

    FixedBaseTable(CurveGroup group, long[] baseAffine, int window) {
        this.group = group;
        this.window = window;
        int bits = group.scalarField().modulus().bitLength();
        this.windows = (bits + window - 1) / window;
        this.pointWidth = group.affineWidth();
        int perWindow = (1 << window) - 1;
        this.table = new long[Math.multiplyExact(windows * perWindow, pointWidth)];
        // window bases 2^(c·i)·G, sequentially (W·c doublings)
        long[][] bases = new long[windows][];
        CurveOps ops = group.newOps();
        int jw = 3 * group.fieldWidth();
        long[] acc = new long[jw];
        ops.affineToJacobian(baseAffine, 0, acc, 0);
        for (int i = 0; i < windows; i++) {
            bases[i] = new long[pointWidth];
            ops.jacobianToAffine(acc, 0, bases[i], 0);
            for (int k = 0; k < window; k++) {
                ops.doubleJacobian(acc, 0, acc, 0);
            }
        }
        ParallelRange.forEach(windows, 1, (from, to) -> {
            CurveOps o = group.newOps();
            long[] jac = new long[perWindow * jw];
            for (long i = from; i < to; i++) {
                long[] base = bases[(int) i];
                o.affineToJacobian(base, 0, jac, 0);
                for (int d = 1; d < perWindow; d++) {
                    o.addAffineToJacobian(jac, (d - 1) * jw, base, 0, jac, d * jw);
                }
                o.batchJacobianToAffine(jac, 0, perWindow, table, (int) i * perWindow * pointWidth);
            }
        });
    }

    /** A window size for {@code count} scalars: about log₂(count) − 4, within [6, 16]. */
    static int windowFor(long count) {
        int log = 64 - Long.numberOfLeadingZeros(Math.max(1, count));
        return Math.max(6, Math.min(16, log - 4));
    }

    /**
     * Writes {@code scalars[i]·G} for {@code i < count} as affine points in the zkey layout into {@code out} from
     * byte {@code outOffset} on. {@code scalars} are Montgomery limbs of 𝔽r, flat; zero gives the all-zero infinity.
     * Parallel over chunks; one batch inversion per chunk for the conversion to affine.
     */
    void multiplyAll(long[] scalars, int count, MemorySegment out, long outOffset) {
        PrimeField fr = group.scalarField();
        int limbs = fr.limbs();
        int jw = 3 * group.fieldWidth();
        int chunk = 1024;
        ParallelRange.forEach((count + chunk - 1) / chunk, 1, (fromChunk, toChunk) -> {
            CurveOps ops = group.newOps();
            long[] jac = new long[chunk * jw];
            long[] affine = new long[chunk * pointWidth];
            long[] k = new long[limbs];
            long[] integerOne = new long[limbs];
            integerOne[0] = 1;
            for (long c = fromChunk; c < toChunk; c++) {
                int first = (int) c * chunk;
                int n = Math.min(chunk, count - first);
                for (int j = 0; j < n; j++) {
                    fr.mul(scalars, (first + j) * limbs, integerOne, 0, k, 0); // canonical digits
                    multiply(ops, k, jac, j * jw);
                }
                ops.batchJacobianToAffine(jac, 0, n, affine, 0);
                SegmentLimbs.write(affine, 0, n * pointWidth, out, outOffset + (long) first * pointWidth * 8);
            }
        });
    }

    /** r (Jacobian) = k·G for canonical limbs k. */
    void multiply(CurveOps ops, long[] k, long[] r, int ro) {
        ops.setInfinityJacobian(r, ro);
        int perWindow = (1 << window) - 1;
        for (int i = 0; i < windows; i++) {
            int d = digit(k, i * window, window);
            if (d != 0) {
                ops.addAffineToJacobian(r, ro, table, (i * perWindow + d - 1) * pointWidth, r, ro);
            }
        }
    }

    /** Bits [pos, pos + width) of the little-endian limbs k (zero past the end). */
    static int digit(long[] k, int pos, int width) {
        int limb = pos >>> 6;
        int shift = pos & 63;
        long v = k[limb] >>> shift;
        if (shift + width > 64 && limb + 1 < k.length) {
            v |= k[limb + 1] << (64 - shift);
        }
        return (int) (v & ((1L << width) - 1));
    }
}
