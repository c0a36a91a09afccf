package io.proofline.snark.setup;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.Coefficients;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.util.SplittableRandom;

/**
 * Random A and B coefficient records of any number of rows, shaped to exercise an evaluation of them rather than to
 * be satisfiable: empty rows (as past a circuit's constraints), rows with only A or only B, the same signal twice in
 * a row, one long row (hundreds of entries, as a circuit's big linear combinations), coefficients 1, −1, small and
 * full-size, and — when asked — the records in shuffled order (other tools than snarkjs need not group them by row).
 * Deterministic per seed; for the checks of a/b/c evaluations (tests, {@code gpu-selftest}).
 */
public final class RandomCoefficients {

    /** Entries of A in the long row (B gets half as many): longer than any one-thread-per-row evaluation wants. */
    public static final int LONG_ROW_ENTRIES = 700;

    private RandomCoefficients() {
    }

    /**
     * Records over rows {@code 0..rows-1} and signals {@code 0..nVars-1}, allocated in {@code arena}; row
     * {@code rows / 2} is the long row when there are at least 2 rows.
     */
    public static Coefficients generate(PrimeField fr, Arena arena, int rows, int nVars, long seed, boolean shuffled) {
        if (rows <= 0 || nVars <= 0) {
            throw new IllegalArgumentException(rows + " rows over " + nVars + " signals");
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] counts = new int[2 * rows];
        long total = 0;
        for (int row = 0; row < rows; row++) {
            boolean empty = rnd.nextInt(8) == 0;
            boolean longRow = rows >= 2 && row == rows / 2;
            counts[2 * row] = longRow ? LONG_ROW_ENTRIES : empty ? 0 : rnd.nextInt(5);
            counts[2 * row + 1] = longRow ? LONG_ROW_ENTRIES / 2 : empty ? 0 : rnd.nextInt(4);
            total += counts[2 * row] + counts[2 * row + 1];
        }
        int count = Math.toIntExact(total);
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        if (shuffled) {
            for (int i = count - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        Coefficients coefficients = Coefficients.allocate(arena, fr, count);
        long[] coef = new long[fr.limbs()];
        int i = 0;
        for (int row = 0; row < rows; row++) {
            for (int matrix = Coefficients.A; matrix <= Coefficients.B; matrix++) {
                int previous = -1;
                for (int k = 0; k < counts[2 * row + matrix]; k++) {
                    int signal = previous >= 0 && rnd.nextInt(6) == 0 ? previous : rnd.nextInt(nVars);
                    randomCoefficient(fr, rnd, coef);
                    coefficients.set(order[i++], matrix, row, signal, coef, 0);
                    previous = signal;
                }
            }
        }
        return coefficients;
    }

    /** Montgomery form of a coefficient as circom emits them: mostly 1, then −1, small integers, full-size values. */
    private static void randomCoefficient(PrimeField fr, SplittableRandom rnd, long[] out) {
        int kind = rnd.nextInt(8);
        long[] v = switch (kind) {
            case 0, 1, 2 -> fr.fromLong(1);
            case 3 -> fr.fromBigInteger(fr.modulus().subtract(BigInteger.ONE));
            case 4, 5 -> fr.fromLong(2 + rnd.nextInt(1000));
            default -> fr.random(rnd);
        };
        System.arraycopy(v, 0, out, 0, v.length);
    }

    /**
     * A random canonical witness of {@code nVars} values as little-endian bytes ({@code fr.bytes()} each), with
     * {@code w[0] = 1} and about one value in eight zero (circuits have many).
     */
    public static byte[] witness(PrimeField fr, int nVars, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] out = new byte[Math.multiplyExact(nVars, fr.bytes())];
        long[] canonical = new long[fr.limbs()];
        for (int i = 0; i < nVars; i++) {
            if (i == 0) {
                fr.setZero(canonical, 0);
                canonical[0] = 1;
            } else if (rnd.nextInt(8) == 0) {
                fr.setZero(canonical, 0);
            } else {
                fr.fromMontgomery(fr.random(rnd), 0, canonical, 0);
            }
            for (int l = 0; l < fr.limbs(); l++) {
                for (int b = 0; b < 8; b++) {
                    out[i * fr.bytes() + 8 * l + b] = (byte) (canonical[l] >>> (8 * b));
                }
            }
        }
        return out;
    }
}
