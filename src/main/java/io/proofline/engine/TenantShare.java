package io.proofline.engine;

import java.util.Objects;

/**
 * Whose a job is, for fair queuing between tenants: the tenant's name and its weight. Within one priority, tenants
 * with partitions waiting are dispatched in proportion to their weights (start-time fair queuing, docs/ARCHITECTURE.md
 * "Fair queue"), whatever order their jobs arrived in.
 *
 * @param tenant who submits (an API key's name); jobs of the same tenant share one virtual clock
 * @param weight a positive share: a tenant of weight 2 gets twice the partitions of one of weight 1 while both wait
 */
public record TenantShare(String tenant, double weight) {

    /** A job of no particular tenant (the CLI, tests): all such jobs are one tenant of weight 1. */
    public static final TenantShare NONE = new TenantShare("", 1);

    public TenantShare {
        Objects.requireNonNull(tenant, "tenant");
        if (!(weight > 0) || !Double.isFinite(weight)) {
            throw new IllegalArgumentException("a tenant's weight must be positive and finite, not " + weight);
        }
    }
}
