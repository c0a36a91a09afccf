package io.proofline.ops;

import io.proofline.engine.DispatcherHealth;
import io.proofline.engine.ProvingEngine;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The engine's dispatcher, the one thread that moves work from the queue into the pipeline: DOWN while it is dead
 * (it is restarted after a short, growing delay) or stalled — work waits and it has not turned for
 * {@link DispatcherHealth#STALL_LIMIT} (blocked in a call that does not return). Part of the liveness group: an
 * instance whose dispatcher stays DOWN moves no work and is restarted. Waiting for memory is no stall.
 */
@Component("dispatcher")
class DispatcherHealthIndicator implements HealthIndicator {

    private final ProvingEngine engine;

    DispatcherHealthIndicator(ProvingEngine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        DispatcherHealth d = engine.dispatcherHealth();
        Health.Builder health = (d.healthy() ? Health.up() : Health.down()).withDetail("restarts", d.restarts())
                .withDetail("alive", d.alive()).withDetail("stalledForSeconds", d.stalledFor().toSeconds())
                .withDetail("admissionOverruns", d.admissionOverruns());
        d.lastFailure().ifPresent(f -> health.withDetail("lastFailure", f));
        d.lastFailureAt().ifPresent(t -> health.withDetail("lastFailureAt", t.toString()));
        return health.build();
    }
}
