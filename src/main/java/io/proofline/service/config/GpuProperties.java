package io.proofline.service.config;

import io.proofline.gpu.GpuConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code proofline.gpu.*}: the GPU backend. Without a GPU backend on the class path (or with {@code enabled}
 * false, or no GPU present) the CPU backend is the engine's one device. The backend's own settings become a
 * {@link GpuConfig} ({@link #toConfig()}); unset ones take its defaults.
 *
 * @param enabled            use GPUs when a GPU backend is present
 * @param devices            the logical devices as CUDA ordinals, in order {@code gpu0, gpu1, …}; an ordinal may
 *                           repeat ({@code [0, 0]}: two logical devices on GPU 0, each with its own stream, worker
 *                           and resident keys); empty means one logical device per GPU present
 * @param workersPerDevice   prove starts one logical device runs at once (its bulkhead)
 * @param deviceMemoryBudget device memory per physical GPU, split evenly between its logical devices; half of each
 *                           share is for resident keys; empty means the device's memory
 * @param cpuFallback        with GPUs, the CPU backend is also a device, used only when every GPU's breaker is open
 *                           or every GPU already faulted on the partition
 * @param b2OnDevice         {@code true}: ΣB2 (the G2 MSM) always on the device, in prove start; {@code false}: always
 *                           on CPU threads, in prove finish; empty: on the device when the key with its B2 section
 *                           fits the device key budget
 * @param msmMaxWindow       the widest Pippenger window of the GPU MSMs; empty: {@link GpuConfig#DEFAULTS}'
 * @param kernels            a directory of fatbins with their {@code modules.list} to load instead of the jar's
 * @param abc                {@code device}: a/b/c evaluated on the GPU in prove start, from the key's constraint rows
 *                           resident there, so GPU partitions hold no host a/b/c; {@code host}: in synthesis, on CPU
 *                           threads, uploaded in prove start
 */
@ConfigurationProperties("proofline.gpu")
record GpuProperties(@DefaultValue("true") boolean enabled, @DefaultValue List<Integer> devices,
                     @DefaultValue("2") int workersPerDevice, DataSize deviceMemoryBudget,
                     @DefaultValue("true") boolean cpuFallback, Boolean b2OnDevice, Integer msmMaxWindow,
                     Path kernels, @DefaultValue("device") GpuConfig.AbcPlacement abc) {

    /** The GPU backend's settings. */
    GpuConfig toConfig() {
        GpuConfig defaults = GpuConfig.DEFAULTS;
        GpuConfig.B2Placement b2 = b2OnDevice == null ? GpuConfig.B2Placement.AUTO
                : b2OnDevice ? GpuConfig.B2Placement.DEVICE : GpuConfig.B2Placement.HOST;
        return new GpuConfig(b2, msmMaxWindow == null ? defaults.msmMaxWindow() : msmMaxWindow,
                Optional.ofNullable(kernels),
                deviceMemoryBudget == null ? defaults.deviceMemoryBudgetBytes() : deviceMemoryBudget.toBytes(), abc);
    }
}
