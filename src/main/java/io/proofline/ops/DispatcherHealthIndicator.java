package io.proofline.ops;

import io.proofline.engine.DispatcherHealth;
import io.proofline.engine.ProvingEngine;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The engine's dispatcher, the one thread that moves work from the queue into the pipeline: DOWN while it is dead
 * (it is restarted after a short, growing delay), with how often it died and why.
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
        Health.Builder health = (d.alive() ? Health.up() : Health.down()).withDetail("restarts", d.restarts());
        d.lastFailure().ifPresent(f -> health.withDetail("lastFailure", f));
        d.lastFailureAt().ifPresent(t -> health.withDetail("lastFailureAt", t.toString()));
        return health.build();
    }
}
