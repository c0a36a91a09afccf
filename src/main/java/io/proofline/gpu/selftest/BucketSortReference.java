package io.proofline.gpu.selftest;

import io.proofline.gpu.internal.MsmSchedule;

import java.util.Arrays;

/**
 * What the GPU MSM's sort of digits into buckets must produce, computed plainly on the CPU: each scalar other than 0
 * and 1 written in signed digits of c bits (a digit above 2^(c−1) becomes d − 2^c and carries one), and each non-zero
 * digit d of window w a pair (point index | sign bit) in bucket w·2^(c−1) + |d| − 1. Buckets in key order, densely.
 */
final class BucketSortReference {

    private static final int SIGN_BIT = 0x80000000;

    private final int[] counts;
    private final int[] offsets;
    private final int[] pairs;

    private BucketSortReference(int[] counts, int[] offsets, int[] pairs) {
        this.counts = counts;
        this.offsets = offsets;
        this.pairs = pairs;
    }

    /**
     * The expected buckets of n canonical scalars (4 little-endian 64-bit limbs each) with {@code windows} windows of
     * c bits.
     */
    static BucketSortReference of(long[] scalars, int n, int c, int windows) {
        int half = 1 << (c - 1);
        int[] keys = new int[n * windows];
        int[] values = new int[n * windows];
        int total = 0;
        for (int i = 0; i < n; i++) {
            long[] s = Arrays.copyOfRange(scalars, 4 * i, 4 * i + 4);
            if (s[1] == 0 && s[2] == 0 && s[3] == 0 && (s[0] == 0 || s[0] == 1)) {
                continue;
            }
            int carry = 0;
            for (int w = 0; w < windows; w++) {
                int raw = bits(s, w * c, c) + carry;
                carry = raw > half ? 1 : 0;
                int d = carry == 1 ? raw - (1 << c) : raw;
                if (d != 0) {
                    keys[total] = w * half + Math.abs(d) - 1;
                    values[total] = i | (d < 0 ? SIGN_BIT : 0);
                    total++;
                }
            }
        }
        int buckets = windows * half;
        int[] counts = new int[buckets];
        for (int j = 0; j < total; j++) {
            counts[keys[j]]++;
        }
        int[] offsets = new int[buckets];
        for (int k = 1; k < buckets; k++) {
            offsets[k] = offsets[k - 1] + counts[k - 1];
        }
        int[] cursor = offsets.clone();
        int[] pairs = new int[total];
        for (int j = 0; j < total; j++) {
            pairs[cursor[keys[j]]++] = values[j];
        }
        return new BucketSortReference(counts, offsets, pairs);
    }

    /** The expected result in the device's layout (all of it: pairs holds exactly Σ counts entries). */
    MsmSchedule.Sorted expected() {
        return new MsmSchedule.Sorted(pairs.clone(), offsets.clone(), counts.clone());
    }

    /** Bits [lo, lo + c) of the 256-bit scalar s (bits past 255 read as zero). */
    private static int bits(long[] s, int lo, int c) {
        int word = lo >>> 6, shift = lo & 63;
        long v = word < 4 ? s[word] >>> shift : 0;
        if (shift != 0 && word + 1 < 4) {
            v |= s[word + 1] << (64 - shift);
        }
        return (int) (v & ((1L << c) - 1));
    }

    /** null when the device's sort has every bucket's count, offset and pairs (as a set) as here, else the first
     *  difference. */
    String mismatch(MsmSchedule.Sorted got) {
        for (int k = 0; k < counts.length; k++) {
            if (got.counts()[k] != counts[k]) {
                return "bucket " + k + ": " + got.counts()[k] + " pairs, expected " + counts[k];
            }
            if (counts[k] == 0) {
                continue;
            }
            if (got.offsets()[k] != offsets[k]) {
                return "bucket " + k + " at " + got.offsets()[k] + ", expected " + offsets[k];
            }
            int[] mine = Arrays.copyOfRange(pairs, offsets[k], offsets[k] + counts[k]);
            int[] theirs = Arrays.copyOfRange(got.pairs(), offsets[k], offsets[k] + counts[k]);
            Arrays.sort(mine);
            Arrays.sort(theirs);
            if (!Arrays.equals(mine, theirs)) {
                return "bucket " + k + " holds other pairs than expected";
            }
        }
        return null;
    }
}
