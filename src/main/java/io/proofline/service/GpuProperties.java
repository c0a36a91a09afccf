package io.proofline.service;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.util.List;

/**
 * {@code proofline.gpu.*}: the GPU backend. Without a GPU backend on the class path (or with {@code enabled}
 * false) the CPU backend is the engine's one device.
 *
 * @param enabled            use GPUs when a GPU backend is present
 * @param devices            the CUDA device ordinals to use; empty means all
 * @param workersPerDevice   prove starts one device runs at once (its bulkhead)
 * @param deviceMemoryBudget device memory the backend may use per GPU; empty means what the device reports free
 */
@ConfigurationProperties("proofline.gpu")
record GpuProperties(@DefaultValue("true") boolean enabled, @DefaultValue List<Integer> devices,
                     @DefaultValue("2") int workersPerDevice, DataSize deviceMemoryBudget) {
}
