package io.proofline.engine.pipeline;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The byte-capped retention against a plain reference: an insertion-ordered map from which the oldest entries are
 * removed until the newest fits, over random sequences of adds (new keys, re-added keys, entries larger than the cap)
 * and lookups.
 */
class FinishedJobsTest {

    /** The reference: the obvious list-based model of "the newest entries whose sizes add up to at most the cap". */
    private static final class Reference {
        final long cap;
        final LinkedHashMap<Integer, long[]> entries = new LinkedHashMap<>(); // key → {value, bytes}

        Reference(long cap) {
            this.cap = cap;
        }

        boolean add(int key, long value, long bytes) {
            entries.remove(key);
            if (bytes > cap) {
                return false;
            }
            entries.put(key, new long[] {value, bytes});
            List<Integer> keys = new ArrayList<>(entries.keySet());
            int first = 0;
            while (total() > cap) {
                entries.remove(keys.get(first++));
            }
            return true;
        }

        long total() {
            return entries.values().stream().mapToLong(e -> e[1]).sum();
        }
    }

    @Test
    void randomSequencesMatchTheReferenceAndNeverExceedTheCap() {
        SplittableRandom random = new SplittableRandom(32);
        for (int run = 0; run < 200; run++) {
            long cap = 1 + random.nextLong(10_000);
            FinishedJobs<Integer, Long> jobs = new FinishedJobs<>(cap);
            Reference reference = new Reference(cap);
            int keys = 1 + random.nextInt(300);
            for (int step = 0; step < 2_000; step++) {
                int key = random.nextInt(keys);
                if (random.nextInt(4) == 0) {
                    long[] expected = reference.entries.get(key);
                    assertThat(jobs.get(key).orElse(null)).isEqualTo(expected == null ? null : expected[0]);
                    continue;
                }
                // mostly small entries, some near or above the cap
                long bytes = random.nextInt(10) == 0 ? random.nextLong(2 * cap + 1) : random.nextLong(cap / 8 + 1);
                long value = random.nextLong();
                assertThat(jobs.add(key, value, bytes)).isEqualTo(reference.add(key, value, bytes));
                assertThat(jobs.bytes()).isEqualTo(reference.total()).isLessThanOrEqualTo(cap);
                assertThat(jobs.size()).isEqualTo(reference.entries.size());
            }
            for (Map.Entry<Integer, long[]> e : reference.entries.entrySet()) {
                assertThat(jobs.get(e.getKey())).contains(e.getValue()[0]);
            }
        }
    }

    @Test
    void anEntryLargerThanTheCapIsNotKeptAndForgetsItsEarlierVersion() {
        FinishedJobs<String, String> jobs = new FinishedJobs<>(100);
        assertThat(jobs.add("a", "small", 10)).isTrue();
        assertThat(jobs.add("a", "huge", 101)).isFalse();
        assertThat(jobs.get("a")).isEmpty();
        assertThat(jobs.bytes()).isZero();
        assertThatThrownBy(() -> new FinishedJobs<String, String>(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
