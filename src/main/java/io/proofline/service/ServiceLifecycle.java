package io.proofline.service;

import io.proofline.service.circuits.KeyCache;
import io.proofline.service.config.PipelineProperties;
import io.proofline.service.jobs.JobRunner;
import io.proofline.service.jobs.JobSchedulingConfiguration;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobStore;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.ShutdownReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Starts taking jobs once the context is up, and shuts down gracefully (SIGTERM): readiness goes DOWN and intake
 * stops, the scheduler stops claiming jobs, running partitions get {@code proofline.pipeline.shutdown-grace} to
 * finish, and every job not finished goes back to the durable queue for the next start or another instance.
 * Stopped first of all lifecycle beans (highest phase), while the web server still answers.
 */
@Component
class ServiceLifecycle implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ServiceLifecycle.class);

    private final Scheduler scheduler;
    private final ProvingEngine engine;
    private final JobService jobs;
    private final JobRunner runner;
    private final JobStore store;
    private final KeyCache keys;
    private final ApplicationEventPublisher events;
    private final Duration grace;
    private final ScheduledExecutorService housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "proofline-key-eviction");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean running;

    ServiceLifecycle(Scheduler scheduler, ProvingEngine engine, JobService jobs, JobRunner runner, JobStore store,
                     KeyCache keys, ApplicationEventPublisher events, PipelineProperties pipeline) {
        this.scheduler = scheduler;
        this.engine = engine;
        this.jobs = jobs;
        this.runner = runner;
        this.store = store;
        this.keys = keys;
        this.events = events;
        this.grace = pipeline.shutdownGrace();
    }

    @Override
    public void start() {
        requeueOrphans();
        scheduler.start();
        housekeeping.scheduleWithFixedDelay(keys::evictExpired, 30, 30, TimeUnit.SECONDS);
        running = true;
    }

    /**
     * A job whose task is missing (a crash between two writes outside one transaction, or an operator's hand)
     * gets its task back; jobs whose task exists are the scheduler's business (dead executions are revived).
     */
    private void requeueOrphans() {
        int n = 0;
        for (String id : store.unfinishedIds()) {
            var job = store.find(id).orElse(null);
            if (job != null && scheduler.scheduleIfNotExists(new TaskInstance<Void>(
                    JobSchedulingConfiguration.PROVE_TASK, id, () -> null, job.priority().ordinal()), Instant.now())) {
                n++;
            }
        }
        if (n > 0) {
            LOG.info("re-queued {} unfinished jobs without a task", n);
        }
    }

    @Override
    public void stop() {
        if (!running) {
            return;
        }
        running = false;
        LOG.info("shutting down: intake stopped, running partitions get {} to finish", grace);
        AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
        jobs.drain();
        runner.stopping();
        scheduler.pause();
        housekeeping.shutdownNow();
        try {
            ShutdownReport report = engine.shutdown(grace);
            LOG.info("engine stopped ({}): {} jobs left queued, {} cut off after the grace period; back to the queue",
                    report.clean() ? "clean" : "not clean", report.leftQueued().size(),
                    report.cancelledInFlight().size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scheduler.stop();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    /**
     * A stop is a shutdown (intake drained, housekeeping and scheduler stopped for good), so the service never takes
     * part in a context pause: a paused and restarted context (Spring's test context cache does this between test
     * classes) would otherwise come back with a stopped scheduler and a dead housekeeping executor.
     */
    @Override
    public boolean isPauseable() {
        return false;
    }
}
