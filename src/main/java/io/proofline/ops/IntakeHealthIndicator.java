package io.proofline.ops;

import io.proofline.service.jobs.JobService;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/** Part of the readiness group: OUT_OF_SERVICE while this instance drains or its engine takes no work. */
@Component("intake")
class IntakeHealthIndicator implements HealthIndicator {

    private final JobService jobs;

    IntakeHealthIndicator(JobService jobs) {
        this.jobs = jobs;
    }

    @Override
    public Health health() {
        return jobs.isAcceptingWork() ? Health.up().build()
                : Health.outOfService().withDetail("reason", "draining: intake stopped").build();
    }
}
