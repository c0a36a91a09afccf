package io.proofline.service.config;

import io.proofline.engine.device.ProvingDevice;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.ProverBackend;

import java.util.List;
import java.util.Map;

/** The engine's devices and the prover backend behind each (for {@code /actuator/info} too). */
public record DeviceBackends(List<ProvingDevice> devices, Map<String, ProverBackend> byDevice) {

    /** The backends with a device of their own (the GPUs'), which keep copies of keys there. */
    public List<DeviceProverBackend> withDevices() {
        return byDevice.values().stream().filter(b -> b instanceof DeviceProverBackend)
                .map(DeviceProverBackend.class::cast).toList();
    }
}
