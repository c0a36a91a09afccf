package io.proofline.engine.pipeline;

import io.proofline.algebra.poly.TwiddleCache;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.Reservation;
import io.proofline.engine.Stage;
import io.proofline.engine.memory.TrackedBuffer;

import java.util.Optional;

/**
 * The engine's {@link TwiddleCache}: each table's bytes reserved from the engine's budget (only if free now: a
 * transform never waits for memory, it computes its twiddles without a table instead) and counted as
 * {@link BufferClass#TWIDDLES} in the {@link Stage#RESIDENT} column while the table lives.
 */
final class BudgetedTwiddles implements TwiddleCache.Budget {

    /**
     * The tables may hold at most 1/this of the budget together. A quarter: the table of a domain is a sixth of one
     * partition's a/b/c on it, so any budget that admits a partition has room for its table beside it; the bound
     * keeps many sizes from piling up, and pressure evicts them anyway.
     */
    static final int BUDGET_SHARE = 4;

    private final MemoryBudget budget;
    private final BufferTracker tracker;

    private BudgetedTwiddles(MemoryBudget budget, BufferTracker tracker) {
        this.budget = budget;
        this.tracker = tracker;
    }

    /** A cache bounded by {@link #BUDGET_SHARE} of {@code budget}, its tables charged to it. */
    static TwiddleCache cache(MemoryBudget budget, BufferTracker tracker) {
        return new TwiddleCache(budget.total() / BUDGET_SHARE, new BudgetedTwiddles(budget, tracker));
    }

    @Override
    public Optional<TwiddleCache.Charge> tryCharge(long bytes) {
        if (!budget.canEverFit(bytes)) {
            return Optional.empty();
        }
        return budget.tryAcquire(bytes).map(reservation -> {
            TrackedBuffer tracked = tracker.track(BufferClass.TWIDDLES, Stage.RESIDENT, bytes);
            tracker.event("NTT twiddle table of " + bytes + " B made");
            return () -> release(reservation, tracked, bytes);
        });
    }

    private void release(Reservation reservation, TrackedBuffer tracked, long bytes) {
        tracked.close();
        reservation.close();
        tracker.event("NTT twiddle table of " + bytes + " B freed");
    }
}
