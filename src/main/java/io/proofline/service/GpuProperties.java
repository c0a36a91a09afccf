package io.proofline.service;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.util.List;

/**
 * {@code proofline.gpu.*}: the GPU backend. Without a GPU backend on the class path (or with {@code enabled}
 * false, or no GPU present) the CPU backend is the engine's one device.
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
 */
@ConfigurationProperties("proofline.gpu")
record GpuProperties(@DefaultValue("true") boolean enabled, @DefaultValue List<Integer> devices,
                     @DefaultValue("2") int workersPerDevice, DataSize deviceMemoryBudget,
                     @DefaultValue("true") boolean cpuFallback) {
}
