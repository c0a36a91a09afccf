package io.proofline.service.config;

import io.proofline.engine.Priority;
import io.proofline.service.Tenant;
import io.proofline.service.tenants.TenantPolicies;
import io.proofline.service.tenants.TenantPolicy;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code proofline.tenants.*} as Spring binds it: a key's own settings override the defaults one by one, the rest
 * stay the defaults'; an out-of-range value fails naming where it was set; the console is held to nothing.
 */
class TenantsPropertiesTest {

    private static TenantPolicies bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("proofline.tenants", TenantsProperties.class).policies();
    }

    @Test
    void aKeysSettingsOverrideTheDefaultsOneByOne() {
        TenantPolicies policies = bind(Map.of(
                "proofline.tenants.defaults.max-circuits", "20",
                "proofline.tenants.keys.key-0a1b2c3d4e5f.weight", "4",
                "proofline.tenants.keys.key-0a1b2c3d4e5f.priorities", "LOW,NORMAL",
                "proofline.tenants.keys.key-0a1b2c3d4e5f.max-stored-bytes", "10GB"));
        TenantPolicy defaults = policies.of("key-ffffffffffff");
        assertThat(defaults).isEqualTo(new TenantPolicy(1, 0.5, Set.of(Priority.values()), 1024, 0, 20, 4));
        assertThat(policies.of(Tenant.apiKey("key-0a1b2c3d4e5f"))).isEqualTo(new TenantPolicy(4, 0.5,
                Set.of(Priority.LOW, Priority.NORMAL), 1024, 10L << 30, 20, 4));
        assertThat(policies.of(Tenant.CONSOLE)).isEqualTo(TenantPolicy.UNLIMITED);
        assertThat(defaults.queuedPartitionLimit(1024)).isEqualTo(512);
        assertThat(new TenantPolicy(1, 0.0001, Set.of(Priority.LOW), 0, 0, 0, 0).queuedPartitionLimit(1024))
                .as("at least one partition").isEqualTo(1);
    }

    @Test
    void anOutOfRangeValueFailsNamingWhereItWasSet() {
        assertThatThrownBy(() -> bind(Map.of("proofline.tenants.keys.key-0a1b2c3d4e5f.queue-share", "1.5")))
                .hasMessageContaining("proofline.tenants.keys.key-0a1b2c3d4e5f").hasMessageContaining("queue-share");
        assertThatThrownBy(() -> bind(Map.of("proofline.tenants.defaults.weight", "0")))
                .hasMessageContaining("proofline.tenants.defaults").hasMessageContaining("weight");
    }
}
