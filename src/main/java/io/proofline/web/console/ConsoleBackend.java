package io.proofline.web.console;

import io.proofline.engine.PipelineSnapshot;

import java.util.List;
import java.util.Optional;

/**
 * What the admin console reads and does, in the console's own terms. The service's beans implement it
 * ({@code ServiceConsoleBackend}); page tests use a fake. Every action is called only from an admin session.
 */
public interface ConsoleBackend {

    /** The buffer table, memory, devices and queues now. */
    PipelineSnapshot snapshot();

    /** Whether intake is open (false while draining). */
    boolean acceptingWork();

    /** The most recent jobs, newest first. */
    List<JobRow> recentJobs(int limit);

    Optional<JobDetail> job(String id);

    List<CircuitRow> circuits();

    /** Every API key (and the console, when it has jobs): its limits and usage, by name. */
    List<TenantRow> tenants();

    /** The effective configuration, in display order. */
    List<ConfigEntry> configuration();

    /** Cancels a job; false when it had already finished. */
    boolean cancel(String jobId);

    /** Evicts a circuit's cached keys (host and devices); false when none was cached or it is in use. */
    boolean evict(String circuitId);

    void drain();

    void resume();

    /** Submits a burst of multi-partition jobs of the demo circuit; answers how many jobs went in. */
    int runDemoLoad();
}
