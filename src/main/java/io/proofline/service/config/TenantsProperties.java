package io.proofline.service.config;

import io.proofline.engine.Priority;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import io.proofline.service.tenants.TenantPolicies;
import io.proofline.service.tenants.TenantPolicy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code proofline.tenants.*}: what each API key (tenant) may use. {@code defaults} apply to every key;
 * {@code keys.<key-name>} (the key's logged name, {@code key-…}) overrides any of them for one key. Bound into
 * {@link io.proofline.service.tenants.TenantPolicies} at start-up.
 *
 * @param defaults every key's limits
 * @param keys     per key name, the limits that differ from the defaults
 */
@ConfigurationProperties("proofline.tenants")
public record TenantsProperties(@DefaultValue Limits defaults, @DefaultValue Map<String, Overrides> keys) {

    /** The immutable policies these properties describe; a value out of range fails start-up, naming the key. */
    public TenantPolicies policies() {
        TenantPolicy base = policy("defaults", defaults.weight(), defaults.queueShare(), defaults.priorities(),
                defaults.maxJobsInFlight(), defaults.maxStoredBytes(), defaults.maxCircuits(),
                defaults.maxRegistrations());
        Map<String, TenantPolicy> byKey = new TreeMap<>();
        keys.forEach((name, o) -> byKey.put(name, policy("keys." + name,
                o.weight() != null ? o.weight() : base.weight(),
                o.queueShare() != null ? o.queueShare() : base.queueShare(),
                o.priorities() != null ? o.priorities() : List.copyOf(base.priorities()),
                o.maxJobsInFlight() != null ? o.maxJobsInFlight() : base.maxJobsInFlight(),
                o.maxStoredBytes() != null ? o.maxStoredBytes() : DataSize.ofBytes(base.maxStoredBytes()),
                o.maxCircuits() != null ? o.maxCircuits() : base.maxCircuits(),
                o.maxRegistrations() != null ? o.maxRegistrations() : base.maxRegistrations())));
        return new TenantPolicies(base, byKey);
    }

    private static TenantPolicy policy(String where, double weight, double queueShare, List<Priority> priorities,
                                       int maxJobsInFlight, DataSize maxStoredBytes, int maxCircuits,
                                       int maxRegistrations) {
        try {
            return new TenantPolicy(weight, queueShare, Set.copyOf(priorities), maxJobsInFlight,
                    maxStoredBytes.toBytes(), maxCircuits, maxRegistrations);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("proofline.tenants." + where + ": " + e.getMessage(), e);
        }
    }

    /**
     * A key's limits; 0 for a count or a size means none.
     *
     * @param weight             its share of dispatch against other keys with work waiting at the same priority
     * @param queueShare         the fraction of {@code proofline.pipeline.queue-capacity} its unproved partitions may
     *                           take (beyond: 429)
     * @param priorities         the priorities it may submit at (others: 403)
     * @param maxJobsInFlight    its jobs queued or running at once (beyond: 429)
     * @param maxStoredBytes     its circuits' zkeys and its unfinished jobs' inputs (beyond: 429)
     * @param maxCircuits        circuits it holds (beyond: 429)
     * @param maxRegistrations   its registrations whose check is in progress (REGISTERING; beyond: 429)
     */
    public record Limits(@DefaultValue("1") double weight, @DefaultValue("0.5") double queueShare,
                         @DefaultValue({"LOW", "NORMAL", "HIGH", "CRITICAL"}) List<Priority> priorities,
                         @DefaultValue("1024") int maxJobsInFlight, @DefaultValue("0") DataSize maxStoredBytes,
                         @DefaultValue("0") int maxCircuits, @DefaultValue("4") int maxRegistrations) {
    }

    /** One key's limits where they differ from the defaults; an absent one is the default's. */
    public record Overrides(Double weight, Double queueShare, List<Priority> priorities, Integer maxJobsInFlight,
                            DataSize maxStoredBytes, Integer maxCircuits, Integer maxRegistrations) {
    }
}
