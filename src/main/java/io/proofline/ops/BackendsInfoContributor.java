package io.proofline.ops;

import io.proofline.service.config.DeviceBackends;
import io.proofline.snark.prover.ProverBackends;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code /actuator/info}: the prover backends available and which one each device uses. */
@Component
class BackendsInfoContributor implements InfoContributor {

    private final DeviceBackends backends;

    BackendsInfoContributor(DeviceBackends backends) {
        this.backends = backends;
    }

    @Override
    public void contribute(Info.Builder builder) {
        Map<String, String> devices = new LinkedHashMap<>();
        backends.byDevice().forEach((device, backend) -> devices.put(device, backend.name()));
        builder.withDetail("backends", Map.of("available", ProverBackends.names(), "devices", devices));
    }
}
