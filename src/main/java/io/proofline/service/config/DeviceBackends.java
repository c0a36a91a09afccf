package io.proofline.service.config;

import io.proofline.engine.device.ProvingDevice;
import io.proofline.snark.prover.ProverBackend;

import java.util.List;
import java.util.Map;

/** The engine's devices and the prover backend behind each (for {@code /actuator/info} too). */
public record DeviceBackends(List<ProvingDevice> devices, Map<String, ProverBackend> byDevice) {
}
