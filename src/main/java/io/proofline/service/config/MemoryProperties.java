package io.proofline.service.config;

import io.proofline.engine.memory.FixedMemory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.time.Duration;

/**
 * {@code proofline.memory.*}: the memory limit, its fixed part, and the budget partitions and cached proving keys
 * draw from (engine {@code MemoryPlan}).
 *
 * @param limit          the most RSS the process may reach; empty means the cgroup's limit, else MemTotal. Below the
 *                       cgroup's limit it narrows it; above, the cgroup's wins
 * @param budget         the budget; empty means the limit less the fixed part. Larger than that, it is lowered to it
 * @param maxThreads     threads the fixed part declares stacks for
 * @param margin         the fixed part's allowance for native memory no other figure names (GC structures, malloc
 *                       and JIT arenas, native libraries)
 * @param keyIdleTimeout a cached proving key unused this long is evicted even without memory pressure
 * @param finishedJobs   the most heap the engine keeps of finished jobs (status, failure text cut to 4,000
 *                       characters, proofs), a figure of the fixed part; empty means 1/16 of the max heap
 */
@ConfigurationProperties("proofline.memory")
public record MemoryProperties(DataSize limit, DataSize budget,
                               @DefaultValue("" + FixedMemory.DEFAULT_MAX_THREADS) int maxThreads,
                               @DefaultValue("" + FixedMemory.DEFAULT_MARGIN_BYTES) DataSize margin,
                               @DefaultValue("10m") Duration keyIdleTimeout, DataSize finishedJobs) {
}
