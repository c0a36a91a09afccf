package io.proofline.engine.pipeline;

import io.proofline.algebra.poly.TwiddleCache;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobStatus;
import io.proofline.engine.DispatcherHealth;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionProver;
import io.proofline.engine.PartitionTooLargeException;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.QueueDepths;
import io.proofline.engine.ShutdownReport;
import io.proofline.engine.Stage;
import io.proofline.engine.TenantLoad;
import io.proofline.engine.UnknownJobException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/** The engine: wires the stages, admits jobs, answers status, and shuts down. */
public final class DefaultProvingEngine<S, P> implements ProvingEngine {

    /** After shutdown cancels running partitions, how long it waits for their port calls to return. */
    static final Duration CANCELLATION_SETTLE = Duration.ofSeconds(5);
    private static final Duration POOL_STOP = Duration.ofSeconds(2);

    private final EngineConfig config;
    private final PartitionProver<S, P> prover;
    private final MemoryBudget budget;
    private final BufferTracker tracker;
    private final StageCounts counts = new StageCounts();
    private final WorkQueue<PartitionRun<S, P>> queue;
    private final Handoff<PartitionRun<S, P>> handoff;
    private final DevicePool devices;
    private final Lifecycle<S, P> lifecycle;
    private final Dispatcher<S, P> dispatcher;
    private final DispatcherSupervisor dispatcherSupervisor;
    private final KeyResidency keys;
    private final ProveStartWorkers<S, P> proving;
    private final StepWatchdog<S, P> watchdog;
    /** The devices, to ask each how much a/b/c it needs evaluated in prove start. */
    private final List<? extends ProvingDevice> deviceList;
    /** The CPU prover's NTT twiddle tables, charged to this engine's budget. */
    private final TwiddleCache twiddles;
    private final ExecutorService synthesisPool;
    private final ExecutorService provingPool;
    private final ThreadPoolExecutor finalizerPool;
    private final ScheduledExecutorService timers;
    /** Jobs not yet retired: queued, running, or finished a moment ago. */
    private final Map<JobId, JobRun<S, P>> jobs = new ConcurrentHashMap<>();
    /**
     * Finished jobs kept for status queries, bounded by bytes ({@link EngineConfig#finishedJobsBytes()}); older ones
     * are forgotten (the service keeps them durably).
     */
    private final FinishedJobs<JobId, RetainedJob> finished;
    private ShutdownReport shutdownReport;

    public DefaultProvingEngine(EngineConfig config, PartitionProver<S, P> prover, List<? extends ProvingDevice> devices,
                                MemoryBudget budget, BufferTracker tracker, KeyResidency keys) {
        this.config = Objects.requireNonNull(config, "config");
        this.prover = Objects.requireNonNull(prover, "prover");
        this.budget = Objects.requireNonNull(budget, "budget");
        this.finished = new FinishedJobs<>(config.finishedJobsBytes());
        this.tracker = Objects.requireNonNull(tracker, "tracker");
        this.devices = new DevicePool(devices, config);
        this.deviceList = List.copyOf(devices);
        this.queue = new WorkQueue<>(config.queueCapacity(), config.queueFullRetryAfter());
        this.handoff = new Handoff<>(PartitionRun.ORDER, config.admission().handoffCapacity(config.handoffCapacity()));
        this.lifecycle = new Lifecycle<>(queue, handoff, tracker, this::retire);
        this.synthesisPool = Executors.newFixedThreadPool(config.synthesisWorkers(), threads("synthesis"));
        this.provingPool = Executors.newFixedThreadPool(this.devices.workers(), threads("prover"));
        this.finalizerPool = new ThreadPoolExecutor(config.finalizerThreads(), config.finalizerThreads(), 0,
                TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threads("finalizer"));
        this.timers = Executors.newSingleThreadScheduledExecutor(threads("timers"));
        Semaphore synthesisSlots = new Semaphore(config.synthesisWorkers());
        SynthesisWorkers<S, P> synthesis = new SynthesisWorkers<>(prover, synthesisPool, synthesisSlots, handoff,
                lifecycle, tracker);
        this.watchdog = new StepWatchdog<>(timers, config.stepTimeout(), this.devices, lifecycle, tracker);
        FinalizeWorkers<S, P> finalize = new FinalizeWorkers<>(prover, this.devices, finalizerPool, lifecycle, tracker,
                watchdog);
        this.keys = Objects.requireNonNull(keys, "keys");
        this.twiddles = BudgetedTwiddles.cache(budget, tracker);
        this.proving = new ProveStartWorkers<>(prover, handoff, this.devices, finalize, lifecycle, tracker, watchdog,
                twiddles);
        this.dispatcher = new Dispatcher<>(queue, budget, keys, twiddles, config.admission(), config.admissionWait(),
                synthesisSlots, synthesis, lifecycle);
        tracker.attach(budget, this.devices::figures, this::queueDepths);
        config.memoryPlan().ifPresent(tracker::useMemoryPlan);
        this.dispatcherSupervisor = new DispatcherSupervisor(dispatcher, threads("dispatcher"), tracker);
        proving.start(provingPool);
        dispatcherSupervisor.start();
        tracker.event("engine started");
    }

    @Override
    public JobId submit(JobRequest request) {
        Objects.requireNonNull(request, "request");
        PartitionFootprint footprint = prover.footprint(request.circuit());
        long lateAbc = deviceList.stream().mapToLong(d -> prover.lateAbcBytes(d, request.circuit())).max().orElse(0);
        // a partition starts only together with its circuit's key (when that is not resident): both must fit
        long admitted = Math.addExact(config.admission().admittedBytes(footprint, lateAbc),
                keys.keyBytes(request.circuit().id()));
        if (!budget.canEverFit(admitted)) {
            throw new PartitionTooLargeException(request.circuit().id(), admitted, budget.total());
        }
        long now = System.nanoTime();
        JobRun<S, P> job = new JobRun<>(JobId.random(), request, now,
                request.verify().orElse(config.verifyProofs()));
        List<PartitionInput> inputs = request.partitions();
        for (int i = 0; i < inputs.size(); i++) {
            job.addPartition(new PartitionRun<>(job, i, inputs.get(i), footprint, lateAbc, tracker, counts, now));
        }
        jobs.put(job.id(), job);
        try {
            queue.admit(job.partitions());
        } catch (RuntimeException refused) {
            jobs.remove(job.id());
            discard(job);
            throw refused;
        }
        request.deadline().ifPresent(d -> scheduleDeadline(job, d));
        tracker.event("job " + job.id() + " submitted (" + inputs.size() + " partitions)");
        return job.id();
    }

    @Override
    public CompletableFuture<JobResult> result(JobId id) {
        JobRun<S, P> live = jobs.get(Objects.requireNonNull(id, "id"));
        if (live != null) {
            return live.result();
        }
        RetainedJob kept = retained(id);
        if (!kept.proofsKept()) {
            throw new UnknownJobException(id, "its proofs were larger than the engine keeps of finished jobs"
                    + " (" + finished.capBytes() + " bytes); read them from where the job's outcome was stored");
        }
        return CompletableFuture.completedFuture(kept.result());
    }

    @Override
    public JobResult await(JobId id, Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return result(id).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a job's future never completes exceptionally", e);
        }
    }

    @Override
    public JobStatus status(JobId id) {
        JobRun<S, P> live = jobs.get(Objects.requireNonNull(id, "id"));
        return live != null ? live.status() : retained(id).status();
    }

    @Override
    public long retainedFinishedBytes() {
        return finished.bytes();
    }

    @Override
    public boolean cancel(JobId id) {
        JobRun<S, P> job = jobs.get(Objects.requireNonNull(id, "id"));
        if (job == null) {
            retained(id);
            return false;
        }
        if (job.isFinished()) {
            return false;
        }
        lifecycle.cancelJob(job);
        return true;
    }

    @Override
    public void drain() {
        queue.closeIntake("draining");
        tracker.event("intake closed");
    }

    @Override
    public void resume() {
        synchronized (this) {
            if (shutdownReport != null) {
                return;
            }
            queue.openIntake();
        }
        tracker.event("intake open");
    }

    @Override
    public boolean isAcceptingWork() {
        return queue.isOpen();
    }

    @Override
    public DispatcherHealth dispatcherHealth() {
        return dispatcherSupervisor.health();
    }

    @Override
    public long stepOverruns() {
        return watchdog.overruns();
    }

    @Override
    public List<TenantLoad> tenantLoads() {
        Map<String, int[]> loads = new TreeMap<>();
        for (JobRun<S, P> job : unfinishedJobs()) {
            int[] load = loads.computeIfAbsent(job.share().tenant(), t -> new int[3]);
            load[0]++;
            for (PartitionRun<S, P> p : job.partitions()) {
                Stage stage = p.stage();
                if (stage != Stage.QUEUED && !stage.isTerminal()) {
                    load[2]++;
                }
            }
        }
        queue.queuedByTenant().forEach((tenant, queued) -> loads.computeIfAbsent(tenant, t -> new int[3])[1] = queued);
        return loads.entrySet().stream().map(e -> new TenantLoad(e.getKey(), e.getValue()[0], e.getValue()[1],
                e.getValue()[2])).toList();
    }

    @Override
    public PipelineSnapshot snapshot() {
        return tracker.snapshot();
    }

    @Override
    public EngineConfig config() {
        return config;
    }

    @Override
    public synchronized ShutdownReport shutdown(Duration grace) throws InterruptedException {
        if (shutdownReport != null) {
            return shutdownReport;
        }
        queue.closeIntake("shut down");
        dispatcher.stop();
        dispatcherSupervisor.stopAndJoin();
        List<JobRun<S, P>> leftQueued = unfinishedJobs().stream().filter(JobRun::hasQueuedPartition).toList();
        leftQueued.forEach(lifecycle::cancelJob);
        long graceEnd = System.nanoTime() + grace.toNanos();
        lifecycle.awaitUntil(() -> counts.inFlight() == 0, graceEnd);
        List<JobRun<S, P>> overran = unfinishedJobs().stream().filter(j -> !leftQueued.contains(j)).toList();
        overran.forEach(lifecycle::cancelJob);
        lifecycle.awaitUntil(() -> counts.inFlight() == 0, System.nanoTime() + CANCELLATION_SETTLE.toNanos());
        stopThreads();
        twiddles.close();
        shutdownReport = new ShutdownReport(leftQueued.stream().map(JobRun::id).toList(),
                overran.stream().map(JobRun::id).toList(), overran.isEmpty());
        tracker.event("engine shut down");
        return shutdownReport;
    }

    @Override
    public void close() {
        try {
            shutdown(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private QueueDepths queueDepths() {
        return new QueueDepths(counts.get(Stage.QUEUED), queue.capacity(), counts.get(Stage.SYNTHESIZING),
                counts.get(Stage.AWAITING_DEVICE), handoff.capacity(), counts.get(Stage.PROVING),
                counts.get(Stage.FINALIZING) + counts.get(Stage.VERIFYING));
    }

    private RetainedJob retained(JobId id) {
        return finished.get(id).orElseThrow(() -> new UnknownJobException(id));
    }

    private List<JobRun<S, P>> unfinishedJobs() {
        return jobs.values().stream().filter(j -> !j.isFinished()).toList();
    }

    /** Undoes a job that was refused admission: nothing of it may stay counted. */
    private void discard(JobRun<S, P> job) {
        for (PartitionRun<S, P> partition : job.partitions()) {
            partition.claimFinish();
            partition.releaseAll();
            partition.moveTo(Stage.CANCELLED);
        }
    }

    private void scheduleDeadline(JobRun<S, P> job, Duration deadline) {
        try {
            job.deadlineTimer(timers.schedule(() -> lifecycle.expire(job, deadline), deadline.toNanos(),
                    TimeUnit.NANOSECONDS));
        } catch (RejectedExecutionException shuttingDown) {
            // shutdown cancels the job anyway
        }
    }

    /**
     * A job finished (its future is complete): what status queries need of it moves into the byte-capped
     * {@link FinishedJobs} (its proofs too where they fit), and the run itself, with its request, is let go. It is
     * added there before it leaves {@link #jobs}, so that a query in between finds it in one or the other.
     */
    private void retire(JobRun<S, P> job) {
        RetainedJob kept = RetainedJob.of(job.status(), job.result().join());
        if (!finished.add(job.id(), kept, kept.heapBytes())) {
            RetainedJob small = kept.withoutProofs();
            finished.add(job.id(), small, small.heapBytes());
        }
        jobs.remove(job.id());
    }

    private void stopThreads() throws InterruptedException {
        proving.stop();
        timers.shutdownNow();
        provingPool.shutdownNow();
        // Stage tasks that never started hold partitions that are cancelled by now: running them here ends
        // them (they see the cancellation first thing) instead of dropping them with their memory.
        synthesisPool.shutdownNow().forEach(Runnable::run);
        finalizerPool.shutdownNow().forEach(Runnable::run);
        for (ExecutorService pool : List.of(synthesisPool, provingPool, finalizerPool, timers)) {
            pool.awaitTermination(POOL_STOP.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static ThreadFactory threads(String stage) {
        AtomicInteger n = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "proofline-" + stage + "-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
