package io.proofline.service.tenants;

import io.proofline.service.Tenant;

import java.util.Map;
import java.util.Objects;

/** Each tenant's {@link TenantPolicy}: its own where one is configured, else the defaults; the console's unlimited. */
public final class TenantPolicies {

    private final TenantPolicy defaults;
    private final Map<String, TenantPolicy> byKeyName;

    public TenantPolicies(TenantPolicy defaults, Map<String, TenantPolicy> byKeyName) {
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.byKeyName = Map.copyOf(byKeyName);
    }

    public TenantPolicy of(Tenant tenant) {
        return tenant.isConsole() ? TenantPolicy.UNLIMITED : of(tenant.principal());
    }

    /** The policy of the key named {@code principal} (rows from before tenancy, {@code "*"}, get the defaults). */
    public TenantPolicy of(String principal) {
        if (Tenant.CONSOLE.principal().equals(principal)) {
            return TenantPolicy.UNLIMITED;
        }
        return byKeyName.getOrDefault(principal, defaults);
    }

    public TenantPolicy defaults() {
        return defaults;
    }

    /** The keys configured with their own policy, by name. */
    public Map<String, TenantPolicy> configured() {
        return byKeyName;
    }
}
