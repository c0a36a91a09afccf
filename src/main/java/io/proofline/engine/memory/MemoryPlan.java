package io.proofline.engine.memory;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * How the memory limit is split: the declared {@link FixedMemory} and the budget for everything else (partitions,
 * cached keys, caches). Refuses a limit that leaves less than {@link #MIN_BUDGET_BYTES} after the fixed part. An
 * explicit budget larger than what the limit leaves is lowered to it, and the plan says so ({@link #lowered()}):
 * a budget the process cannot hold within its limit would only move the failure to the kernel's OOM killer.
 *
 * @param limit       the memory limit
 * @param fixed       the fixed part
 * @param budgetBytes the budget
 * @param requestedBudgetBytes the explicit budget asked for, or 0 for none
 */
public record MemoryPlan(MemoryLimit limit, FixedMemory fixed, long budgetBytes, long requestedBudgetBytes) {

    /** One partition of a small circuit and a small key need a few hundred MiB. */
    public static final long MIN_BUDGET_BYTES = 256L << 20;

    public MemoryPlan {
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(fixed, "fixed");
        if (budgetBytes <= 0) {
            throw new IllegalArgumentException("budget must be positive: " + budgetBytes);
        }
    }

    /**
     * The plan for {@code limit} and {@code fixed}; {@code requestedBudget} an explicit budget, if any.
     *
     * @throws IllegalStateException when the limit leaves less than {@link #MIN_BUDGET_BYTES}, or an explicit
     *                               budget is below it
     */
    public static MemoryPlan of(MemoryLimit limit, FixedMemory fixed, OptionalLong requestedBudget) {
        long available = limit.bytes() - fixed.totalBytes();
        if (available < MIN_BUDGET_BYTES) {
            throw new IllegalStateException("the memory limit " + mib(limit.bytes()) + " MiB (" + limit.source()
                    + ") leaves " + mib(available) + " MiB after the fixed part of " + mib(fixed.totalBytes())
                    + " MiB (" + fixed.describe() + "); the budget needs at least " + mib(MIN_BUDGET_BYTES)
                    + " MiB: raise the limit, or start the JVM with the options of `proofline heap-opts`,"
                    + " or lower proofline.memory.max-threads / proofline.memory.margin");
        }
        if (requestedBudget.isPresent() && requestedBudget.getAsLong() < MIN_BUDGET_BYTES) {
            throw new IllegalStateException("proofline.memory.budget " + mib(requestedBudget.getAsLong())
                    + " MiB is below the least budget of " + mib(MIN_BUDGET_BYTES) + " MiB");
        }
        long budget = requestedBudget.isPresent() ? Math.min(requestedBudget.getAsLong(), available) : available;
        return new MemoryPlan(limit, fixed, budget, requestedBudget.orElse(0));
    }

    /** The plan of this process: its limit (narrowed by {@code configuredLimit}) and {@code fixed}. */
    public static MemoryPlan detect(OptionalLong configuredLimit, FixedMemory fixed, OptionalLong requestedBudget) {
        return of(MemoryLimit.detect(configuredLimit), fixed, requestedBudget);
    }

    /** Whether an explicit budget was lowered to what the limit leaves. */
    public boolean lowered() {
        return requestedBudgetBytes > budgetBytes;
    }

    /**
     * Resident bytes no figure explains: {@code rss} less the tracked buffers, the heap committed and the fixed
     * part other than the heap. Negative while the declared caps are not reached; growing means a leak or a stray
     * allocation.
     */
    public long unaccountedBytes(long rss, long trackedBytes, long heapCommitted) {
        return rss - trackedBytes - heapCommitted - fixed.nonHeapBytes();
    }

    /** One line for the start-up log. */
    public String describe() {
        return "limit " + mib(limit.bytes()) + " MiB (" + limit.source() + "), fixed part " + mib(fixed.totalBytes())
                + " MiB (" + fixed.describe() + "), budget " + mib(budgetBytes) + " MiB"
                + (lowered() ? " (proofline.memory.budget " + mib(requestedBudgetBytes) + " MiB lowered to fit)" : "");
    }

    private static long mib(long bytes) {
        return bytes >> 20;
    }
}
