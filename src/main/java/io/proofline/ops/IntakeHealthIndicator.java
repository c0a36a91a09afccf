package io.proofline.ops;

import io.proofline.service.jobs.JobService;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Whether this instance takes new jobs, as a detail: UP either way. A draining instance (the console's Drain, or a
 * shutdown beginning) refuses submissions with 503 but still answers reads, so intake is not part of readiness: a pod
 * taken out of its Service would leave clients without their proofs and the admin without Resume (a shutdown turns
 * readiness DOWN by itself).
 */
@Component("intake")
class IntakeHealthIndicator implements HealthIndicator {

    private final JobService jobs;

    IntakeHealthIndicator(JobService jobs) {
        this.jobs = jobs;
    }

    @Override
    public Health health() {
        return jobs.isAcceptingWork() ? Health.up().withDetail("accepting", true).build()
                : Health.up().withDetail("accepting", false).withDetail("reason", "draining: intake stopped").build();
    }
}
