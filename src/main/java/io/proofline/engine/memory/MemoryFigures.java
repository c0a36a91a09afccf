package io.proofline.engine.memory;

import java.util.Map;

/**
 * The memory plan against what the process holds now: the limit, the declared fixed part by name, the budget, the
 * tracked host bytes and what nothing explains ({@link MemoryPlan#unaccountedBytes}).
 *
 * @param limitBytes       the memory limit; 0 where the engine runs without a plan (tests, in-process benchmarks)
 * @param limitSource      where the limit came from ({@link MemoryLimit.Source}), empty without a plan
 * @param fixed            the fixed part's figures by name
 * @param fixedBytes       their sum
 * @param budgetBytes      the budget
 * @param trackedHostBytes tracked buffers resident in host memory off the heap
 * @param unaccountedBytes RSS − (tracked host bytes + heap committed + the fixed part other than the heap); negative
 *                         while the declared caps are not reached; 0 without a plan or without an RSS reading
 */
public record MemoryFigures(long limitBytes, String limitSource, Map<String, Long> fixed, long fixedBytes,
                            long budgetBytes, long trackedHostBytes, long unaccountedBytes) {

    public MemoryFigures {
        fixed = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fixed));
    }

    /** The figures of {@code plan} with the process's readings. */
    public static MemoryFigures of(MemoryPlan plan, ProcessMemory process, long trackedHostBytes) {
        long unaccounted = process.rssBytes() < 0 ? 0
                : plan.unaccountedBytes(process.rssBytes(), trackedHostBytes, process.heapCommittedBytes());
        return new MemoryFigures(plan.limit().bytes(), plan.limit().source().name(), plan.fixed().figures(),
                plan.fixed().totalBytes(), plan.budgetBytes(), trackedHostBytes, unaccounted);
    }

    /** Without a plan: only the tracked bytes are known. */
    public static MemoryFigures unplanned(long trackedHostBytes) {
        return new MemoryFigures(0, "", Map.of(), 0, 0, trackedHostBytes, 0);
    }
}
