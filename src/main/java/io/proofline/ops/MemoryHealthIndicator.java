package io.proofline.ops;

import io.proofline.engine.EngineConfig;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Memory pressure: the budget's use and the process RSS against the memory limit. UP with a {@code pressure}
 * level ({@code low} below 80 % of the budget reserved, {@code high} above); DOWN when RSS exceeds the memory limit,
 * i.e. memory outside the budget's accounting is growing and the host limit is near.
 */
@Component("memory")
class MemoryHealthIndicator implements HealthIndicator {

    static final double HIGH_PRESSURE = 0.8;

    private final ProvingEngine engine;

    MemoryHealthIndicator(ProvingEngine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        PipelineSnapshot s = engine.snapshot();
        EngineConfig config = engine.config();
        double used = s.budget().totalBytes() == 0 ? 0 : (double) s.budget().reservedBytes() / s.budget().totalBytes();
        long limit = config.memoryPlan().map(plan -> plan.limit().bytes()).orElse(config.budgetBytes());
        boolean over = s.process().rssBytes() > limit;
        return (over ? Health.down() : Health.up())
                .withDetail("pressure", used >= HIGH_PRESSURE ? "high" : "low")
                .withDetail("budgetReservedBytes", s.budget().reservedBytes())
                .withDetail("budgetTotalBytes", s.budget().totalBytes())
                .withDetail("rssBytes", s.process().rssBytes())
                .withDetail("rssLimitBytes", limit)
                .build();
    }
}
