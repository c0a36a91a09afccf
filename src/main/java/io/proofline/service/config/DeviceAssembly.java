package io.proofline.service.config;

import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.DeviceShare;
import io.proofline.snark.prover.ProverBackend;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the GPU settings into the engine's devices: logical device {@code gpuK} for the K-th configured ordinal
 * (each a new backend instance from {@link DeviceProverBackend#forDevice}, sharing its physical GPU's memory budget with
 * the other logical devices on it), plus the CPU backend as a fallback device; or the CPU backend alone when no GPU
 * backend can be used.
 */
final class DeviceAssembly {

    static final String CPU_ID = "cpu";

    private DeviceAssembly() {
    }

    /**
     * @param ordinals      the configured CUDA ordinals (repeats allowed); empty means one per device present
     * @param gpu           a usable GPU backend, or empty
     * @param memoryBudget  device bytes per physical GPU; 0 means the device's memory
     * @param cpuFallback   add the CPU backend as a fallback device beside the GPUs
     * @throws IllegalArgumentException when an ordinal is not a present device
     */
    static DeviceBackends assemble(List<Integer> ordinals, Optional<DeviceProverBackend> gpu, long memoryBudget,
                                    boolean cpuFallback, ProverBackend cpu) {
        List<ProvingDevice> devices = new ArrayList<>();
        Map<String, ProverBackend> byDevice = new LinkedHashMap<>();
        if (gpu.isEmpty()) {
            add(new BackendDevice(CPU_ID, cpu, false), devices, byDevice);
            return new DeviceBackends(devices, byDevice);
        }
        int present = gpu.get().deviceCount();
        List<Integer> logical = ordinals.isEmpty() ? allOf(present) : List.copyOf(ordinals);
        for (int k = 0; k < logical.size(); k++) {
            int ordinal = logical.get(k);
            if (ordinal < 0 || ordinal >= present) {
                throw new IllegalArgumentException("proofline.gpu.devices names GPU " + ordinal + ", but "
                        + present + " GPU(s) are present");
            }
            String id = "gpu" + k;
            DeviceShare share = new DeviceShare(ordinal, id, Collections.frequency(logical, ordinal), memoryBudget);
            add(new BackendDevice(id, gpu.get().forDevice(share), false), devices, byDevice);
        }
        if (cpuFallback) {
            add(new BackendDevice(CPU_ID, cpu, true), devices, byDevice);
        }
        return new DeviceBackends(devices, byDevice);
    }

    private static List<Integer> allOf(int present) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < present; i++) {
            all.add(i);
        }
        return all;
    }

    private static void add(BackendDevice device, List<ProvingDevice> devices, Map<String, ProverBackend> byDevice) {
        devices.add(device);
        byDevice.put(device.id(), device.backend());
    }
}
