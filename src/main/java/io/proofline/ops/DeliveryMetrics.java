package io.proofline.ops;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.proofline.engine.ProvingEngine;
import io.proofline.service.jobs.JobService;
import org.springframework.stereotype.Component;

import java.time.Duration;

/**
 * Whether accepted jobs keep moving (issue #33, "liveness by progress"): the age of the oldest job accepted and not yet
 * finished on any instance (the Helm chart's {@code ProoflineJobNotFinishing} alert), how often the head of the queue
 * waited a whole admission wait for memory, how often a device step overran the step timeout, and how long the
 * dispatcher has been stalled. The age is read from the job store at most every {@link #AGE_MAX_AGE}.
 */
@Component
class DeliveryMetrics implements MeterBinder {

    static final Duration AGE_MAX_AGE = Duration.ofSeconds(5);

    private final ProvingEngine engine;
    private final JobService jobs;
    private double ageSeconds;
    private long ageReadAt;
    private boolean ageRead;

    DeliveryMetrics(ProvingEngine engine, JobService jobs) {
        this.engine = engine;
        this.jobs = jobs;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("proofline.jobs.oldest.in.flight.age.seconds", this, DeliveryMetrics::oldestAge)
                .description("seconds since the oldest job accepted and not yet finished (any instance) was accepted")
                .strongReference(true).register(registry);
        FunctionCounter.builder("proofline.admission.overruns", engine,
                        e -> e.dispatcherHealth().admissionOverruns())
                .description("admission waits the head of the queue waited out, keeping its place (congestion)")
                .register(registry);
        FunctionCounter.builder("proofline.step.overruns", engine, ProvingEngine::stepOverruns)
                .description("prove starts and finishes that ran past the step timeout").register(registry);
        Gauge.builder("proofline.dispatcher.stalled.seconds", engine,
                        e -> e.dispatcherHealth().stalledFor().toMillis() / 1000.0)
                .description("seconds work has waited while the dispatcher did not turn").strongReference(true)
                .register(registry);
    }

    private synchronized double oldestAge() {
        long now = System.nanoTime();
        if (!ageRead || now - ageReadAt > AGE_MAX_AGE.toNanos()) {
            try {
                ageSeconds = jobs.oldestUnfinishedAge().toMillis() / 1000.0;
            } catch (RuntimeException databaseUnreachable) {
                return ageSeconds; // the last figure until the store answers again
            }
            ageRead = true;
            ageReadAt = now;
        }
        return ageSeconds;
    }
}
