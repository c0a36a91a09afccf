package io.proofline.service.config;

import io.proofline.gpu.GpuConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code proofline.gpu.*} reaches the GPU backend's {@link GpuConfig} from environment variables too, bound the way
 * Spring binds the service's (a system-environment property source, relaxed names): the variables issue #20 found
 * silently ignored when they were system properties.
 */
class GpuPropertiesBindingTest {

    private static GpuProperties bindEnvironment(Map<String, Object> variables) {
        SystemEnvironmentPropertySource env = new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables);
        return new Binder(ConfigurationPropertySources.from(env)).bindOrCreate("proofline.gpu", GpuProperties.class);
    }

    @Test
    void environmentVariablesSetEveryGpuSetting() {
        GpuProperties bound = bindEnvironment(Map.of(
                "PROOFLINE_GPU_B2_ON_DEVICE", "false",
                "PROOFLINE_GPU_MSM_MAX_WINDOW", "16",
                "PROOFLINE_GPU_KERNELS", "/opt/proofline/kernels",
                "PROOFLINE_GPU_DEVICE_MEMORY_BUDGET", "40GB",
                "PROOFLINE_GPU_DEVICES", "0,0",
                "PROOFLINE_GPU_ABC", "host"));
        assertThat(bound.devices()).containsExactly(0, 0);
        assertThat(bound.toConfig()).isEqualTo(new GpuConfig(GpuConfig.B2Placement.HOST, 16,
                Optional.of(Path.of("/opt/proofline/kernels")), 40L << 30, GpuConfig.AbcPlacement.HOST));
        assertThat(bindEnvironment(Map.of("PROOFLINE_GPU_B2_ON_DEVICE", "true")).toConfig().b2())
                .isEqualTo(GpuConfig.B2Placement.DEVICE);
    }

    @Test
    void unsetSettingsAreTheBackendDefaults() {
        GpuProperties bound = bindEnvironment(Map.of());
        assertThat(bound.toConfig()).isEqualTo(GpuConfig.DEFAULTS);
        assertThat(bound.toConfig().b2()).isEqualTo(GpuConfig.B2Placement.AUTO);
        assertThat(bound.toConfig().abc()).isEqualTo(GpuConfig.AbcPlacement.DEVICE);
        assertThat(bound.devices()).isEqualTo(List.of());
    }
}
