package io.proofline.web.console;

import io.proofline.engine.EngineConfig;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.StageTimings;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.CircuitState;
import io.proofline.service.circuits.CircuitStatus;
import io.proofline.service.circuits.RegistrationProgress;
import io.proofline.service.ConflictException;
import io.proofline.service.circuits.DemoCircuit;
import io.proofline.service.jobs.JobRecord;
import io.proofline.service.jobs.JobService;
import io.proofline.service.circuits.KeyCache;
import io.proofline.service.config.MemoryProperties;
import io.proofline.service.NotFoundException;
import io.proofline.service.jobs.PartitionRecord;
import io.proofline.service.config.PipelineProperties;
import io.proofline.service.config.SecurityProperties;
import io.proofline.service.config.StoreProperties;
import io.proofline.service.Tenant;
import io.proofline.service.jobs.Timings;
import io.proofline.service.tenants.TenantPolicies;
import io.proofline.service.tenants.TenantPolicy;
import io.proofline.service.tenants.TenantUsage;
import io.proofline.service.tenants.TenantUsageStore;
import io.proofline.engine.TenantLoad;
import io.proofline.web.security.Credentials;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The console over the service's beans: jobs from the job store (live stages from the engine), circuits, keys. */
@Component
class ServiceConsoleBackend implements ConsoleBackend {

    private final ProvingEngine engine;
    private final EngineConfig config;
    private final JobService jobs;
    private final CircuitService circuits;
    private final KeyCache keys;
    private final DemoCircuit demo;
    /** The service's own settings, which the configuration page shows beside the engine's. */
    private final MemoryProperties memory;
    private final PipelineProperties pipeline;
    private final StoreProperties store;
    private final SecurityProperties security;
    private final Environment environment;
    private final Units units;
    private final TenantPolicies policies;
    private final TenantUsageStore usage;
    private final Credentials credentials;

    ServiceConsoleBackend(ProvingEngine engine, EngineConfig config, JobService jobs, CircuitService circuits,
                          KeyCache keys, DemoCircuit demo, MemoryProperties memory, PipelineProperties pipeline,
                          StoreProperties store, SecurityProperties security, Environment environment, Units units,
                          TenantPolicies policies, TenantUsageStore usage, Credentials credentials) {
        this.policies = policies;
        this.usage = usage;
        this.credentials = credentials;
        this.engine = engine;
        this.config = config;
        this.jobs = jobs;
        this.circuits = circuits;
        this.keys = keys;
        this.demo = demo;
        this.memory = memory;
        this.pipeline = pipeline;
        this.store = store;
        this.security = security;
        this.environment = environment;
        this.units = units;
    }

    @Override
    public List<TenantRow> tenants() {
        Map<String, TenantUsage> used = usage.all();
        Map<String, TenantLoad> loads = engine.tenantLoads().stream()
                .collect(Collectors.toMap(TenantLoad::tenant, Function.identity()));
        Set<String> names = new TreeSet<>(credentials.keyNames());
        names.addAll(policies.configured().keySet());
        names.addAll(used.keySet());
        names.addAll(loads.keySet());
        names.remove(Tenant.EVERY_KEY);
        List<TenantRow> rows = new ArrayList<>();
        for (String name : names) {
            TenantPolicy p = policies.of(name);
            TenantUsage u = used.getOrDefault(name, TenantUsage.NONE);
            TenantLoad load = loads.getOrDefault(name, new TenantLoad(name, 0, 0, 0));
            rows.add(new TenantRow(name, p.weight(), p.priorities().stream().sorted().map(Enum::name)
                    .collect(Collectors.joining(" ")), u.unprovedPartitions(),
                    p.queuedPartitionLimit(pipeline.queueCapacity()), load.queued(), load.inFlight(), u.jobsInFlight(),
                    p.maxJobsInFlight(), u.storedBytes(), p.maxStoredBytes(), u.circuits(), p.maxCircuits(),
                    u.registrations(), p.maxRegistrations()));
        }
        return rows;
    }

    @Override
    public PipelineSnapshot snapshot() {
        return engine.snapshot();
    }

    @Override
    public boolean acceptingWork() {
        return jobs.isAcceptingWork();
    }

    @Override
    public List<JobRow> recentJobs(int limit) {
        Map<String, String> names = circuitNames();
        return jobs.list(Tenant.CONSOLE, Optional.empty(), 0, Math.min(limit, JobService.MAX_PAGE_SIZE)).jobs().stream()
                .map(j -> row(j, names)).toList();
    }

    @Override
    public Optional<JobDetail> job(String id) {
        JobService.JobView view;
        try {
            view = jobs.get(Tenant.CONSOLE, id);
        } catch (NotFoundException e) {
            return Optional.empty();
        }
        List<PartitionStatus> partitions = new ArrayList<>();
        for (PartitionRecord p : view.partitions()) {
            partitions.add(new PartitionStatus(p.index(), p.stage(), p.device() == null ? "" : p.device(),
                    timings(p.timings())));
        }
        JobRecord job = view.job();
        return Optional.of(new JobDetail(row(job, circuitNames()), partitions, timings(job.timings()),
                Optional.ofNullable(job.error()).filter(e -> !e.isBlank())));
    }

    @Override
    public List<CircuitRow> circuits() {
        Map<String, List<KeyCache.CachedKey>> cached = keys.cached().stream()
                .collect(Collectors.groupingBy(KeyCache.CachedKey::circuitId));
        return circuits.statuses(Tenant.CONSOLE).stream().map(status -> {
            CircuitInfo c = status.circuit();
            return new CircuitRow(c.id(), c.name(), c.curve(), c.constraints(), c.variables(), c.publicSignals(),
                    c.domainSize(), c.zkeyBytes(), cached.getOrDefault(c.id(), List.of()).stream()
                            // the key cache holds host copies; device-resident keys come with the GPU backend
                            .map(k -> new CircuitRow.CachedKey("host", k.bytes(), k.pins(), k.idle())).toList(),
                    c.state().name(), stateDetail(status));
        }).toList();
    }

    /** The progress of a REGISTERING circuit's check (the section being checked, the whole), or why it FAILED. */
    private static String stateDetail(CircuitStatus status) {
        CircuitInfo c = status.circuit();
        if (c.state() == CircuitState.FAILED) {
            return c.failure() == null ? "" : c.failure();
        }
        if (c.state() != CircuitState.REGISTERING || status.progress().isEmpty()) {
            return "";
        }
        long checked = 0;
        long total = 0;
        String current = null;
        for (RegistrationProgress.Section s : status.progress()) {
            checked += s.checked();
            total += s.total();
            if (current == null && s.checked() < s.total()) {
                current = s.name() + " " + String.format(Locale.ROOT, "%,d / %,d", s.checked(), s.total());
            }
        }
        return (current == null ? "" : current + " · ") + (total == 0 ? 0 : 100 * checked / total) + "% of "
                + String.format(Locale.ROOT, "%,d", total) + " points";
    }

    @Override
    public List<ConfigEntry> configuration() {
        List<ConfigEntry> entries = new ArrayList<>();
        config.memoryPlan().ifPresent(plan -> entries.add(new ConfigEntry("memory", "proofline.memory.limit",
                units.bytes(plan.limit().bytes()) + " (" + plan.limit().source().name().toLowerCase(Locale.ROOT) + ")")));
        entries.add(new ConfigEntry("memory", "proofline.memory.budget", units.bytes(config.budgetBytes())
                + (memory.budget() != null ? "" : " (memory limit less the fixed part)")));
        entries.add(new ConfigEntry("memory", "proofline.memory.max-threads", String.valueOf(memory.maxThreads())));
        entries.add(new ConfigEntry("memory", "proofline.memory.margin", units.bytes(memory.margin().toBytes())));
        entries.add(new ConfigEntry("memory", "proofline.memory.key-idle-timeout",
                units.duration(memory.keyIdleTimeout())));
        entries.add(new ConfigEntry("pipeline", "proofline.pipeline.synthesis-workers",
                String.valueOf(config.synthesisWorkers())));
        entries.add(new ConfigEntry("pipeline", "proofline.pipeline.queue-capacity",
                config.queueCapacity() + " partitions"));
        entries.add(new ConfigEntry("pipeline", "proofline.pipeline.handoff-capacity",
                config.handoffCapacity() + " partitions"));
        entries.add(new ConfigEntry("pipeline", "proofline.pipeline.finalizer-threads",
                String.valueOf(config.finalizerThreads())));
        entries.add(new ConfigEntry("pipeline", "proofline.pipeline.job-threads",
                String.valueOf(pipeline.jobThreads())));
        entries.add(new ConfigEntry("pipeline", "policy", config.admission().name()));
        entries.add(new ConfigEntry("gpu", "proofline.gpu.enabled",
                environment.getProperty("proofline.gpu.enabled", "true")));
        entries.add(new ConfigEntry("gpu", "proofline.gpu.workers-per-device",
                String.valueOf(config.workersPerDevice())));
        entries.add(new ConfigEntry("gpu", "devices", engine.snapshot().devices().stream()
                .map(d -> d.id() + " (" + d.workers() + " workers, breaker " + d.breakerState().toLowerCase() + ")")
                .collect(Collectors.joining(", "))));
        entries.add(new ConfigEntry("gpu", "breaker", "opens at half of " + EngineConfig.BREAKER_WINDOW
                + " prove starts failing (after " + config.breakerMinimumCalls() + "), retries after "
                + units.duration(config.deviceRetryAfter())));
        entries.add(new ConfigEntry("proofs", "proofline.verify-proofs", String.valueOf(config.verifyProofs())));
        entries.add(new ConfigEntry("store", "proofline.store.data-dir", store.dataDir().toString()));
        entries.add(new ConfigEntry("store", "proofline.store.retention",
                units.duration(store.retention())));
        entries.add(new ConfigEntry("store", "spring.datasource.url",
                UrlSecrets.mask(environment.getProperty("spring.datasource.url", "–"))));
        entries.add(new ConfigEntry("security", "proofline.security.admin-user", security.adminUser()));
        entries.add(new ConfigEntry("security", "proofline.security.requests-per-second",
                String.valueOf(security.requestsPerSecond())));
        entries.add(new ConfigEntry("security", "proofline.security.metrics-user",
                security.metricsPassword() == null || security.metricsPassword().isBlank()
                        ? "– (no metrics password)" : security.metricsUser()));
        entries.add(new ConfigEntry("security", "proofline.security.streams-per-key",
                security.streamsPerKey() + " event streams, each closed after "
                        + units.duration(security.streamTimeout())));
        entries.add(new ConfigEntry("security", "proofline.security.login-attempts",
                security.loginAttempts() + " failures, then lockouts doubling up to "
                        + units.duration(security.loginLockout())));
        return entries;
    }

    @Override
    public boolean cancel(String jobId) {
        try {
            // Accepted: a queued job is cancelled at once, a running one as each partition stops.
            jobs.cancel(Tenant.CONSOLE, jobId);
            return true;
        } catch (ConflictException | NotFoundException alreadyFinishedOrGone) {
            return false;
        }
    }

    @Override
    public boolean evict(String circuitId) {
        return keys.evict(circuitId);
    }

    @Override
    public void drain() {
        jobs.drain();
    }

    @Override
    public void resume() {
        jobs.resume();
    }

    @Override
    public int runDemoLoad() {
        return demo.submitBurst();
    }

    private Map<String, String> circuitNames() {
        return circuits.list(Tenant.CONSOLE).stream().collect(Collectors.toMap(CircuitInfo::id,
                c -> c.name() == null || c.name().isBlank() ? ConsoleController.shortId(c.id()) : c.name(),
                (a, b) -> a));
    }

    private static JobRow row(JobRecord j, Map<String, String> names) {
        return new JobRow(j.id(), j.circuitId(), names.getOrDefault(j.circuitId(),
                ConsoleController.shortId(j.circuitId())), j.status(), j.priority(), j.partitions(), j.createdAt());
    }

    private static StageTimings timings(Timings t) {
        if (t == null) {
            return StageTimings.ZERO;
        }
        Function<Long, Duration> ms = Duration::ofMillis;
        return new StageTimings(ms.apply(t.queueWaitMs()), ms.apply(t.synthesisMs()), ms.apply(t.deviceWaitMs()),
                ms.apply(t.provingMs()), ms.apply(t.finalizeMs()), ms.apply(t.verifyMs()), ms.apply(t.totalMs()));
    }
}
