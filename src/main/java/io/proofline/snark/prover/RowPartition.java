package io.proofline.snark.prover;

import io.proofline.algebra.poly.ParallelRange;
import io.proofline.snark.Coefficients;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;


/**
 * Cuts the coefficient records of a key into chunks that can be evaluated in parallel without write races: every
 * (matrix, row) pair's records sit in one chunk, so each output row is written by one thread only.
 *
 * <p>snarkjs writes the records constraint by constraint, so each (matrix, row) pair forms one contiguous run. When
 * that holds, cuts are placed at run boundaries. When it does not (a key written by another tool), there is one
 * chunk, and evaluation is sequential but still correct. Plans are cached per {@link Coefficients} instance.
 */
final class RowPartition {

    private static final Map<Coefficients, int[]> CACHE = new WeakHashMap<>();

    private RowPartition() {
    }

    /** Chunk boundaries {@code 0 = b₀ < b₁ < … < b_k = count}: chunk i is records {@code [bᵢ, bᵢ₊₁)}. */
    static int[] of(Coefficients coefficients, int rows) {
        synchronized (CACHE) {
            int[] cached = CACHE.get(coefficients);
            if (cached != null) {
                return cached;
            }
        }
        int[] plan = compute(coefficients, rows);
        synchronized (CACHE) {
            CACHE.put(coefficients, plan);
        }
        return plan;
    }

    private static int[] compute(Coefficients coefficients, int rows) {
        int count = coefficients.count();
        if (count == 0) {
            return new int[] {0, 0};
        }
        BitSet[] seen = {new BitSet(rows), new BitSet(rows)};
        List<Integer> runStarts = new ArrayList<>();
        long previous = -1;
        for (int i = 0; i < count; i++) {
            int matrix = coefficients.matrix(i);
            int row = coefficients.row(i);
            if (matrix != Coefficients.A && matrix != Coefficients.B) {
                throw new IllegalArgumentException("coefficient " + i + ": matrix id " + matrix + " is neither A nor B");
            }
            if (row < 0 || row >= rows) {
                throw new IllegalArgumentException("coefficient " + i + ": row " + row + " outside the domain of " + rows);
            }
            long key = ((long) matrix << 32) | row;
            if (key != previous) {
                if (seen[matrix].get(row)) {
                    return new int[] {0, count}; // a row split over several runs: no safe cut
                }
                seen[matrix].set(row);
                runStarts.add(i);
                previous = key;
            }
        }
        int chunks = Math.max(1, 8 * ParallelRange.parallelism());
        List<Integer> cuts = new ArrayList<>();
        cuts.add(0);
        int next = 0;
        for (int k = 1; k < chunks; k++) {
            long target = (long) count * k / chunks;
            while (next < runStarts.size() && runStarts.get(next) < target) {
                next++;
            }
            if (next < runStarts.size() && runStarts.get(next) > cuts.getLast()) {
                cuts.add(runStarts.get(next));
            }
        }
        cuts.add(count);
        return cuts.stream().mapToInt(Integer::intValue).toArray();
    }
}
