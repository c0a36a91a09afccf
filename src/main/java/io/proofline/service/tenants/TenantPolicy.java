package io.proofline.service.tenants;

import io.proofline.engine.Priority;

import java.util.Objects;
import java.util.Set;

/**
 * What one tenant (API key) may use (docs/API.md "Per-tenant limits"). A count or size of 0 means no limit.
 *
 * @param weight           its share of dispatch against other tenants with work waiting at the same priority
 * @param queueShare       the fraction (0, 1] of the queue's capacity its unproved partitions may take
 * @param priorities       the priorities it may submit at
 * @param maxJobsInFlight  its jobs queued or running at once
 * @param maxStoredBytes   bytes of its circuits' zkeys and its unfinished jobs' inputs
 * @param maxCircuits      circuits it holds
 * @param maxRegistrations its registrations still being checked
 */
public record TenantPolicy(double weight, double queueShare, Set<Priority> priorities, int maxJobsInFlight,
                           long maxStoredBytes, int maxCircuits, int maxRegistrations) {

    /** The console's: the admin is not limited. */
    public static final TenantPolicy UNLIMITED = new TenantPolicy(1, 1, Set.of(Priority.values()), 0, 0, 0, 0);

    public TenantPolicy {
        if (!(weight > 0) || !Double.isFinite(weight)) {
            throw new IllegalArgumentException("weight must be positive, not " + weight);
        }
        if (!(queueShare > 0 && queueShare <= 1)) {
            throw new IllegalArgumentException("queue-share must be in (0, 1], not " + queueShare);
        }
        priorities = Set.copyOf(Objects.requireNonNull(priorities, "priorities"));
        if (priorities.isEmpty()) {
            throw new IllegalArgumentException("priorities must name at least one priority");
        }
        if (maxJobsInFlight < 0 || maxStoredBytes < 0 || maxCircuits < 0 || maxRegistrations < 0) {
            throw new IllegalArgumentException("a limit must not be negative");
        }
    }

    /** The most unproved partitions the tenant may have in a queue of {@code capacity}: at least one. */
    public int queuedPartitionLimit(int capacity) {
        return Math.max(1, (int) Math.floor(queueShare * capacity));
    }
}
