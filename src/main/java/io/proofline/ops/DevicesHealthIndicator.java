package io.proofline.ops;

import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.ProvingEngine;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The proving devices (GPUs, or the CPU backend): busy workers, memory and circuit-breaker state. DOWN when every
 * device's breaker is open (no device can take a partition); UP while the CPU fallback still can, even with every
 * GPU's breaker open (the details show which).
 */
@Component("devices")
class DevicesHealthIndicator implements HealthIndicator {

    private final ProvingEngine engine;

    DevicesHealthIndicator(ProvingEngine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean anyUsable = false;
        for (DeviceFigures d : engine.snapshot().devices()) {
            anyUsable |= !d.breakerState().equals("OPEN") && !d.breakerState().equals("FORCED_OPEN");
            details.put(d.id(), Map.of("breaker", d.breakerState(), "busyWorkers", d.busyWorkers(),
                    "workers", d.workers(), "usedBytes", d.memory().usedBytes(), "freeBytes", d.memory().freeBytes(),
                    "keyDeviceBytes", d.memory().keyBytes(), "scratchDeviceBytes", d.memory().scratchBytes(),
                    "fallback", d.fallback()));
        }
        return (anyUsable ? Health.up() : Health.down()).withDetails(details).build();
    }
}
