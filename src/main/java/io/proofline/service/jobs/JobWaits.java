package io.proofline.service.jobs;

import io.proofline.service.BusyException;
import io.proofline.service.config.SecurityProperties;
import jakarta.annotation.PreDestroy;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Parked waits for jobs to end ({@code GET /api/v1/jobs/{id}?waitSeconds=N}), so that a client learns of its proof
 * as soon as it exists without polling (and without spending its request rate on polls). A wait ends when this
 * instance's runner finishes the job (at once, from its {@link JobFinishedEvent}), when a sweep of the database finds
 * it ended otherwise (on another instance, cancelled while queued, failed before it ran), or when its time is up.
 * A parked wait holds no thread, only its future; each principal may park at most {@code perPrincipal} at once.
 */
@Component
public class JobWaits {

    /** How often jobs that are waited on are looked up in the database (for ends this instance does not see). */
    static final Duration SWEEP_PERIOD = Duration.ofMillis(250);

    private final JobStore store;
    private final int perPrincipal;
    private final Map<String, List<CompletableFuture<Void>>> byJob = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> parked = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper;

    JobWaits(JobStore store, SecurityProperties security) {
        this.store = store;
        this.perPrincipal = security.waitsPerKey();
        this.sweeper = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("proofline-job-waits").factory());
        sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_PERIOD.toMillis(), SWEEP_PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * A future that completes (with null, never exceptionally) when job {@code jobId} ends or {@code max} has
     * passed, whichever is first; the caller then reads the job. The caller has checked that the principal may see
     * the job.
     *
     * @throws BusyException (429) when {@code principal} already has {@code waits-per-key} waits parked
     */
    public CompletableFuture<Void> await(String principal, String jobId, Duration max) {
        AtomicInteger count = parked.computeIfAbsent(principal, p -> new AtomicInteger());
        if (count.incrementAndGet() > perPrincipal) {
            count.decrementAndGet();
            throw new BusyException("this key already waits on " + perPrincipal + " jobs (proofline.security."
                    + "waits-per-key); poll, or wait on fewer at once", Duration.ofSeconds(1), false);
        }
        CompletableFuture<Void> wait = new CompletableFuture<>();
        byJob.computeIfAbsent(jobId, id -> new CopyOnWriteArrayList<>()).add(wait);
        wait.whenComplete((v, e) -> {
            count.decrementAndGet();
            byJob.computeIfPresent(jobId, (id, waits) -> {
                waits.remove(wait);
                return waits.isEmpty() ? null : waits;
            });
        });
        // A job that ended between the caller's read and the registration above would otherwise wait its full time.
        if (store.find(jobId).map(j -> j.status().isTerminal()).orElse(true)) {
            wait.complete(null);
        }
        return wait.completeOnTimeout(null, max.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits parked now, over all principals. */
    int parked() {
        return byJob.values().stream().mapToInt(List::size).sum();
    }

    @EventListener
    void finishedHere(JobFinishedEvent event) {
        ended(event.jobId());
    }

    private void ended(String jobId) {
        List<CompletableFuture<Void>> waits = byJob.get(jobId);
        if (waits != null) {
            waits.forEach(w -> w.complete(null));
        }
    }

    private void sweep() {
        Set<String> jobs = Set.copyOf(byJob.keySet());
        for (String jobId : jobs) {
            try {
                if (store.find(jobId).map(j -> j.status().isTerminal()).orElse(true)) {
                    ended(jobId);
                }
            } catch (RuntimeException databaseAway) {
                // the waits end by their timeout; the next sweep tries again
            }
        }
    }

    @PreDestroy
    void close() {
        sweeper.shutdownNow();
        byJob.values().forEach(waits -> waits.forEach(w -> w.complete(null)));
    }
}
