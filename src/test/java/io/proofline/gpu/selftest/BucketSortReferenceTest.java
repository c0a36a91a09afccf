package io.proofline.gpu.selftest;

import io.proofline.gpu.internal.MsmSchedule;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The self-test's reference of the MSM's bucket sort: its buckets must spell each scalar back, Σ_w d_w·2^(c·w). */
class BucketSortReferenceTest {

    private static final BigInteger BN254_R = new BigInteger(
            "21888242871839275222246405745257275088548364400416034343698204186575808495617");

    @Test
    void bucketsSpellEveryScalarBackInSignedDigits() {
        SplittableRandom random = new SplittableRandom(7);
        for (int c : new int[] {2, 5, 8, 13, 16, 17}) {
            int n = 300;
            BigInteger[] expected = new BigInteger[n];
            long[] scalars = new long[4 * n];
            for (int i = 0; i < n; i++) {
                BigInteger s = switch (i % 5) {
                    case 0 -> BigInteger.ZERO;
                    case 1 -> BigInteger.ONE;
                    case 2 -> BN254_R.subtract(BigInteger.ONE);
                    default -> new BigInteger(254, new java.util.Random(random.nextLong())).mod(BN254_R);
                };
                expected[i] = s;
                for (int limb = 0; limb < 4; limb++) {
                    scalars[4 * i + limb] = s.shiftRight(64 * limb).longValue();
                }
            }
            int windows = (254 + c) / c;  // BN254's r has 254 bits
            MsmSchedule.Sorted sorted = BucketSortReference.of(scalars, n, c, windows).expected();
            BigInteger[] spelled = new BigInteger[n];
            java.util.Arrays.fill(spelled, BigInteger.ZERO);
            int half = 1 << (c - 1);
            for (int key = 0; key < sorted.counts().length; key++) {
                int window = key / half;
                long magnitude = key % half + 1;
                for (int j = 0; j < sorted.counts()[key]; j++) {
                    int pair = sorted.pairs()[sorted.offsets()[key] + j];
                    int point = pair & 0x7fffffff;
                    BigInteger digit = BigInteger.valueOf(pair < 0 ? -magnitude : magnitude);
                    spelled[point] = spelled[point].add(digit.shiftLeft(c * window));
                }
            }
            for (int i = 0; i < n; i++) {
                // 0 and 1 have no digits: the MSM adds the points of scalar 1 directly.
                BigInteger want = expected[i].equals(BigInteger.ONE) ? BigInteger.ZERO : expected[i];
                assertEquals(want, spelled[i], "scalar " + i + ", c = " + c);
            }
        }
    }

    @Test
    void aMovedPairOrAWrongCountIsAMismatch() {
        long[] scalars = {5, 0, 0, 0, 9, 0, 0, 0, 5, 0, 0, 0};
        BucketSortReference reference = BucketSortReference.of(scalars, 3, 4, 64);
        MsmSchedule.Sorted exact = reference.expected();
        assertNull(reference.mismatch(exact));

        int[] swapped = exact.pairs().clone();
        int last = swapped.length - 1;
        int t = swapped[0];
        swapped[0] = swapped[last];
        swapped[last] = t;
        assertNotNull(reference.mismatch(new MsmSchedule.Sorted(swapped, exact.offsets(), exact.counts())));

        int[] counts = exact.counts().clone();
        counts[0]++;
        assertNotNull(reference.mismatch(new MsmSchedule.Sorted(exact.pairs(), exact.offsets(), counts)));
    }
}
