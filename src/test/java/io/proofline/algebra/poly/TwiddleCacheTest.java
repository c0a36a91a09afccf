package io.proofline.algebra.poly;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.field.PrimeField;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The twiddle tables: bounded, charged before they are made, evicted in no use, and never needed for a result. */
class TwiddleCacheTest {

    /** A budget of {@code total} bytes that records what it granted and got back. */
    private static final class CountingBudget implements TwiddleCache.Budget {
        final long total;
        final AtomicLong charged = new AtomicLong();
        final List<Long> grants = new ArrayList<>();

        CountingBudget(long total) {
            this.total = total;
        }

        @Override
        public synchronized Optional<TwiddleCache.Charge> tryCharge(long bytes) {
            if (charged.get() + bytes > total) {
                return Optional.empty();
            }
            charged.addAndGet(bytes);
            grants.add(bytes);
            return Optional.of(() -> charged.addAndGet(-bytes));
        }
    }

    private static FieldVector random(PrimeField f, int log, long seed, Arena arena) {
        SplittableRandom rnd = new SplittableRandom(seed);
        FieldVector v = FieldVector.allocate(f, 1L << log, arena);
        for (long i = 0; i < v.length(); i++) {
            v.setBigInteger(i, java.math.BigInteger.valueOf(rnd.nextLong() & Long.MAX_VALUE).shiftLeft(60)
                    .add(java.math.BigInteger.valueOf(rnd.nextLong() & Long.MAX_VALUE)).mod(f.modulus()));
        }
        return v;
    }

    private static void assertSame(FieldVector a, FieldVector b) {
        assertThat(a.segment().mismatch(b.segment())).as("first differing byte").isEqualTo(-1);
    }

    @Test
    void aTransformWithoutATableEqualsOneWithATable() {
        for (PrimeField f : new PrimeField[] {Bn254.FR, Bls12381.FR}) {
            // 2^15: four stages past the in-cache blocks, the last with stride 1
            int log = 15;
            TwiddleCache none = new TwiddleCache(0, TwiddleCache.Budget.UNLIMITED);
            TwiddleCache some = new TwiddleCache(1L << 30, TwiddleCache.Budget.UNLIMITED);
            try (Arena arena = Arena.ofShared()) {
                FieldVector computed = random(f, log, 7, arena);
                FieldVector tabled = random(f, log, 7, arena);
                Radix2Domain d = Radix2Domain.of(f, log);
                ScopedValue.where(TwiddleCache.CURRENT, none).run(() -> d.forward(computed));
                ScopedValue.where(TwiddleCache.CURRENT, some).run(() -> d.forward(tabled));
                assertSame(computed, tabled);
                assertThat(none.refused()).isEqualTo(1);
                assertThat(some.made()).isEqualTo(1);
                ScopedValue.where(TwiddleCache.CURRENT, none).run(() -> d.inverse(computed));
                ScopedValue.where(TwiddleCache.CURRENT, some).run(() -> d.inverse(tabled));
                assertSame(computed, tabled);
                assertThat(some.made()).as("the second transform reuses the table").isEqualTo(1);
            }
        }
    }

    @Test
    void tablesAreChargedBeforeTheyAreMadeAndGivenBackWhenEvicted() {
        PrimeField f = Bn254.FR;
        long t14 = TwiddleCache.tableBytes(f, 14);
        assertThat(t14).isEqualTo((1L << 13) * 32);
        CountingBudget budget = new CountingBudget(1L << 30);
        TwiddleCache cache = new TwiddleCache(1L << 30, budget);
        try (TwiddleCache.Lease a = cache.acquire(f, 14).orElseThrow()) {
            assertThat(budget.charged.get()).isEqualTo(t14);
            assertThat(a.table().byteSize()).isEqualTo(t14);
            assertThat(cache.evictUnused(Long.MAX_VALUE)).as("a table in use is not evicted").isZero();
        }
        assertThat(cache.bytes()).as("cached after use").isEqualTo(t14);
        assertThat(cache.evictUnused(1)).isEqualTo(t14);
        assertThat(budget.charged.get()).isZero();
        assertThat(cache.tables()).isZero();
    }

    @Test
    void theBoundEvictsTheLeastRecentlyUsedTableInNoUse() {
        PrimeField f = Bn254.FR;
        CountingBudget budget = new CountingBudget(1L << 30);
        // room for two tables of 2^13 (128 KiB each), not three
        TwiddleCache cache = new TwiddleCache(2 * TwiddleCache.tableBytes(f, 13), budget);
        cache.acquire(f, 12).orElseThrow().close();
        cache.acquire(f, 13).orElseThrow().close();
        // 2^12 (64 KiB) + 2^13 (128 KiB) + another 2^13-sized table would pass the bound: the older goes
        cache.acquire(Bls12381.FR, 13).orElseThrow().close();
        assertThat(cache.bytes()).isLessThanOrEqualTo(cache.maxBytes());
        assertThat(budget.charged.get()).isEqualTo(cache.bytes());
        assertThat(cache.made()).isEqualTo(3);
        // a table larger than the bound is never made
        assertThat(cache.acquire(f, 20)).isEmpty();
        // nor one that only tables in use keep out
        try (TwiddleCache.Lease a = cache.acquire(f, 13).orElseThrow();
             TwiddleCache.Lease b = cache.acquire(Bls12381.FR, 13).orElseThrow()) {
            assertThat(cache.acquire(f, 12)).isEmpty();
            assertThat(cache.bytes()).isLessThanOrEqualTo(cache.maxBytes());
        }
        cache.close();
        assertThat(budget.charged.get()).isZero();
    }

    @Test
    void aShortBudgetFirstEvictsTheTablesInNoUseThenRefuses() {
        PrimeField f = Bn254.FR;
        long t13 = TwiddleCache.tableBytes(f, 13);
        CountingBudget budget = new CountingBudget(t13 + t13 / 2);
        TwiddleCache cache = new TwiddleCache(1L << 30, budget);
        cache.acquire(f, 13).orElseThrow().close();
        // the other curve's 2^13 table does not fit beside it: the unused one goes to make room
        try (TwiddleCache.Lease held = cache.acquire(Bls12381.FR, 13).orElseThrow()) {
            assertThat(cache.tables()).isEqualTo(1);
            // and with the held one in use, a third cannot be had: the caller computes its twiddles
            assertThat(cache.acquire(f, 13)).isEmpty();
            assertThat(cache.refused()).isEqualTo(1);
        }
        cache.close();
        assertThat(budget.charged.get()).isZero();
    }

    @Test
    void aTableInUseWhenTheCacheClosesIsGivenBackWithItsLastLease() {
        CountingBudget budget = new CountingBudget(1L << 30);
        TwiddleCache cache = new TwiddleCache(1L << 30, budget);
        TwiddleCache.Lease lease = cache.acquire(Bn254.FR, 13).orElseThrow();
        cache.close();
        assertThat(budget.charged.get()).as("still in use").isPositive();
        assertThat(cache.acquire(Bn254.FR, 12)).as("a closed cache makes none").isEmpty();
        lease.close();
        lease.close();
        assertThat(budget.charged.get()).isZero();
    }

    @Test
    void theTableIsTheDomainsPowersOfOmega() {
        PrimeField f = Bls12381.FR;
        int log = 12;
        long[] omega = Radix2Domain.rootOfUnity(f, 1L << log);
        try (TwiddleCache cache = new TwiddleCache(1L << 30, TwiddleCache.Budget.UNLIMITED);
             TwiddleCache.Lease lease = cache.acquire(f, log).orElseThrow()) {
            long[] expected = f.fromBigInteger(java.math.BigInteger.ONE);
            long[] got = new long[f.limbs()];
            for (long j = 0; j < (1L << log) / 2; j++) {
                java.lang.foreign.MemorySegment.copy(lease.table(), FieldVector.LIMB, j * 8 * f.limbs(), got, 0,
                        f.limbs());
                assertThat(got).as("ω^" + j).isEqualTo(expected);
                f.mul(expected, 0, omega, 0, expected, 0);
            }
        }
    }
}
