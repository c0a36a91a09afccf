package io.proofline.service.tenants;

import io.proofline.engine.Priority;
import io.proofline.service.QuotaExceededException;
import io.proofline.service.Tenant;
import io.proofline.service.config.PipelineProperties;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Holds each tenant to its {@link TenantPolicy} when it submits a job or registers a circuit (docs/API.md
 * "Per-tenant limits"): a priority it may not use is a 403, a quota its usage has reached a 429, each naming the limit
 * and the usage. A tenant's checks and the write that adds to its usage run under the tenant's lock, so this instance
 * never lets one tenant's concurrent requests past a limit together.
 */
@Service
public class TenantQuotas {

    private final TenantPolicies policies;
    private final TenantUsageStore usage;
    private final int queueCapacity;
    private final Duration retryAfter;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    private final Map<Refusal, LongAdder> refusals = new ConcurrentHashMap<>();

    /** A tenant's requests refused for one limit. */
    public record Refusal(String tenant, String limit) {
    }

    public TenantQuotas(TenantPolicies policies, TenantUsageStore usage, PipelineProperties pipeline) {
        this.policies = policies;
        this.usage = usage;
        this.queueCapacity = pipeline.queueCapacity();
        this.retryAfter = pipeline.retryAfter();
    }

    public TenantPolicy policy(Tenant tenant) {
        return policies.of(tenant);
    }

    /** How many requests each tenant had refused, per limit, since start (the metrics' counters). */
    public Map<Refusal, Long> refusals() {
        Map<Refusal, Long> counts = new java.util.HashMap<>();
        refusals.forEach((r, n) -> counts.put(r, n.sum()));
        return counts;
    }

    private QuotaExceededException refused(Tenant tenant, QuotaExceededException e) {
        refusals.computeIfAbsent(new Refusal(tenant.principal(), e.limit()), r -> new LongAdder()).increment();
        return e;
    }

    /** Runs {@code admitAndWrite} under {@code tenant}'s lock: its checks and the write they guard, together. */
    public <T> T underLock(Tenant tenant, Supplier<T> admitAndWrite) {
        ReentrantLock lock = locks.computeIfAbsent(tenant.principal(), p -> new ReentrantLock());
        lock.lock();
        try {
            return admitAndWrite.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A job of {@code partitions} partitions ({@code inputBytes} of inputs) at {@code priority}: allowed by the
     * tenant's priorities, its jobs in flight, its share of the queue and its stored bytes; call under
     * {@link #underLock}.
     */
    public void admitJob(Tenant tenant, Priority priority, int partitions, long inputBytes) {
        TenantPolicy policy = policies.of(tenant);
        if (!policy.priorities().contains(priority)) {
            String why = "this API key may not submit at " + priority
                    + "; its priorities (proofline.tenants.<key>.priorities) are " + sorted(policy);
            throw refused(tenant, QuotaExceededException.forbidden("priority", why, "priorities", sorted(policy),
                    priority));
        }
        if (tenant.isConsole()) {
            return;
        }
        TenantUsage now = usage.of(tenant.principal());
        if (policy.maxJobsInFlight() > 0 && now.jobsInFlight() + 1 > policy.maxJobsInFlight()) {
            String why = "this API key has " + now.jobsInFlight() + " jobs queued or running, its limit "
                    + "(max-jobs-in-flight) is " + policy.maxJobsInFlight();
            throw exhausted(tenant, null, why, "max-jobs-in-flight", policy.maxJobsInFlight(), now.jobsInFlight());
        }
        int share = policy.queuedPartitionLimit(queueCapacity);
        if (now.unprovedPartitions() + partitions > share) {
            String why = "this API key has " + now.unprovedPartitions() + " partitions not yet proved and the job "
                    + "adds " + partitions + "; its share of the queue (queue-share " + policy.queueShare() + " of "
                    + queueCapacity + ") is " + share + " partitions" + (partitions > share ? ": split the job" : "");
            throw exhausted(tenant, "partitions", why, "queue-share", share, now.unprovedPartitions());
        }
        if (policy.maxStoredBytes() > 0 && now.storedBytes() + inputBytes > policy.maxStoredBytes()) {
            String why = "this API key stores " + now.storedBytes() + " B and the job adds " + inputBytes
                    + " B; its limit (max-stored-bytes) is " + policy.maxStoredBytes() + " B";
            throw exhausted(tenant, null, why, "max-stored-bytes", policy.maxStoredBytes(), now.storedBytes());
        }
    }

    /** A registration may start: the tenant's circuits and registrations in progress are below their limits. */
    public void admitRegistration(Tenant tenant) {
        TenantPolicy policy = policies.of(tenant);
        if (tenant.isConsole()) {
            return;
        }
        TenantUsage now = usage.of(tenant.principal());
        if (policy.maxCircuits() > 0 && now.circuits() + 1 > policy.maxCircuits()) {
            String why = "this API key holds " + now.circuits() + " circuits, its limit (max-circuits) is "
                    + policy.maxCircuits() + "; delete one first";
            throw exhausted(tenant, "zkey", why, "max-circuits", policy.maxCircuits(), now.circuits());
        }
        if (policy.maxRegistrations() > 0 && now.registrations() + 1 > policy.maxRegistrations()) {
            String why = "this API key has " + now.registrations() + " registrations being checked, its limit "
                    + "(max-registrations) is " + policy.maxRegistrations();
            throw exhausted(tenant, "zkey", why, "max-registrations", policy.maxRegistrations(),
                    now.registrations());
        }
    }

    /** A new circuit's zkey of {@code zkeyBytes} fits the tenant's stored bytes. */
    public void admitStoredCircuit(Tenant tenant, long zkeyBytes) {
        TenantPolicy policy = policies.of(tenant);
        if (tenant.isConsole() || policy.maxStoredBytes() == 0) {
            return;
        }
        TenantUsage now = usage.of(tenant.principal());
        if (now.storedBytes() + zkeyBytes > policy.maxStoredBytes()) {
            String why = "this API key stores " + now.storedBytes() + " B and the zkey adds " + zkeyBytes
                    + " B; its limit (max-stored-bytes) is " + policy.maxStoredBytes() + " B";
            throw exhausted(tenant, "zkey", why, "max-stored-bytes", policy.maxStoredBytes(), now.storedBytes());
        }
    }

    private QuotaExceededException exhausted(Tenant tenant, String field, String message, String limit, Object value,
                                             Object used) {
        return refused(tenant, QuotaExceededException.exhausted(field, message, limit, value, used, retryAfter));
    }

    private static java.util.List<Priority> sorted(TenantPolicy policy) {
        return policy.priorities().stream().sorted().toList();
    }
}
