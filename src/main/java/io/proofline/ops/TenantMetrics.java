package io.proofline.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.TenantLoad;
import io.proofline.service.Tenant;
import io.proofline.service.tenants.TenantPolicies;
import io.proofline.service.tenants.TenantQuotas;
import io.proofline.service.tenants.TenantUsage;
import io.proofline.service.tenants.TenantUsageStore;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * Each tenant's work and usage as gauges tagged {@code tenant} (its key's name): partitions queued and in flight in
 * this instance's engine, and from the database (all instances) its jobs in flight, partitions not yet proved, stored
 * bytes and circuits, beside its queue share; and the requests refused it, per limit. A tenant's gauges appear once it
 * is configured or has used the service;
 * the database is read at most every {@link #MAX_AGE}, whatever the number of gauges scraped.
 */
@Component
class TenantMetrics implements MeterBinder {

    static final Duration MAX_AGE = Duration.ofSeconds(5);

    /** One tenant's figures at the last read. */
    private record Figures(TenantUsage usage, TenantLoad load) {
    }

    private final ProvingEngine engine;
    private final TenantUsageStore usage;
    private final TenantPolicies policies;
    private final int queueCapacity;
    private final TenantQuotas quotas;
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private final Set<TenantQuotas.Refusal> counted = ConcurrentHashMap.newKeySet();
    private volatile Map<String, Figures> figures = Map.of();
    private long readAt;
    private boolean read;
    private MeterRegistry registry;

    TenantMetrics(ProvingEngine engine, TenantUsageStore usage, TenantPolicies policies, TenantQuotas quotas) {
        this.engine = engine;
        this.quotas = quotas;
        this.usage = usage;
        this.policies = policies;
        this.queueCapacity = engine.config().queueCapacity();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("proofline.tenants", this, m -> m.current().size())
                .description("tenants (API keys) with work or usage; each has the proofline.tenant.* gauges")
                .strongReference(true).register(registry);
        policies.configured().keySet().forEach(this::register);
    }

    private void register(String tenant) {
        if (Tenant.EVERY_KEY.equals(tenant) || !registered.add(tenant)) {
            return;
        }
        gauge(tenant, "proofline.tenant.queued.partitions", "its partitions in this instance's engine queue",
                f -> f.load().queued());
        gauge(tenant, "proofline.tenant.inflight.partitions",
                "its partitions past the engine queue and not finished, on this instance", f -> f.load().inFlight());
        gauge(tenant, "proofline.tenant.unproved.partitions",
                "its partitions accepted and not yet proved, all instances (bounded by its queue share)",
                f -> f.usage().unprovedPartitions());
        gauge(tenant, "proofline.tenant.jobs.in.flight", "its jobs queued or running, all instances",
                f -> f.usage().jobsInFlight());
        gauge(tenant, "proofline.tenant.stored.bytes", "its circuits' zkeys and its unfinished jobs' inputs",
                f -> f.usage().storedBytes());
        gauge(tenant, "proofline.tenant.circuits", "circuits it holds", f -> f.usage().circuits());
        Gauge.builder("proofline.tenant.queue.share.partitions", policies,
                        p -> p.of(tenant).queuedPartitionLimit(queueCapacity))
                .description("the partitions its queue share allows").tags(Tags.of("tenant", tenant))
                .register(registry);
    }

    private void gauge(String tenant, String name, String description, ToDoubleFunction<Figures> value) {
        Gauge.builder(name, this, m -> {
                    Figures f = m.current().get(tenant);
                    return f == null ? 0 : value.applyAsDouble(f);
                }).description(description).tags(Tags.of("tenant", tenant)).strongReference(true)
                .register(registry);
    }

    /** The figures, read again when older than {@link #MAX_AGE}; tenants seen for the first time get their gauges. */
    private Map<String, Figures> current() {
        synchronized (this) {
            long now = System.nanoTime();
            if (read && now - readAt <= MAX_AGE.toNanos()) {
                return figures;
            }
            Map<String, TenantUsage> used;
            try {
                used = usage.all();
            } catch (RuntimeException databaseUnreachable) {
                return figures; // the last figures until the store answers again
            }
            Map<String, Figures> next = new HashMap<>();
            Map<String, TenantLoad> loads = new HashMap<>();
            engine.tenantLoads().forEach(l -> loads.put(l.tenant(), l));
            used.forEach((t, u) -> next.put(t, new Figures(u, loads.getOrDefault(t, new TenantLoad(t, 0, 0, 0)))));
            loads.forEach((t, l) -> next.putIfAbsent(t, new Figures(TenantUsage.NONE, l)));
            figures = Map.copyOf(next);
            read = true;
            readAt = now;
        }
        figures.keySet().forEach(this::register);
        quotas.refusals().keySet().stream().filter(counted::add).forEach(r -> FunctionCounter
                .builder("proofline.tenant.refusals", quotas, q -> q.refusals().getOrDefault(r, 0L))
                .description("its submissions and registrations refused (403, 429) for the limit named")
                .tags(Tags.of("tenant", r.tenant(), "limit", r.limit())).register(registry));
        return figures;
    }
}
