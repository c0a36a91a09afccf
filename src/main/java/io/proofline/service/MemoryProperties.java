package io.proofline.service;

import io.proofline.engine.EngineConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.time.Duration;

/**
 * {@code proofline.memory.*}: the budget partitions and cached proving keys draw from.
 *
 * @param budget         the budget; empty means the memory limit (cgroup, else MemTotal) less {@code headroom}
 * @param headroom       kept back from the limit for the JVM heap, metaspace, stacks and drivers
 * @param keyIdleTimeout a cached proving key unused this long is evicted even without memory pressure
 */
@ConfigurationProperties("proofline.memory")
public record MemoryProperties(DataSize budget,
                               @DefaultValue("" + EngineConfig.DEFAULT_HEADROOM_BYTES) DataSize headroom,
                               @DefaultValue("10m") Duration keyIdleTimeout) {
}
