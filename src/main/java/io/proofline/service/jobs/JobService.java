package io.proofline.service.jobs;

import io.proofline.service.BusyException;
import io.proofline.service.ConflictException;
import io.proofline.service.DataDirectory;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.NotFoundException;
import io.proofline.service.ServiceException;
import io.proofline.service.Tenant;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.KeyCache;
import io.proofline.service.config.PipelineProperties;
import io.proofline.service.tenants.TenantQuotas;
import io.proofline.service.tenants.TenantUsageStore;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.JobState;
import io.proofline.engine.JobStatus;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.Priority;
import io.proofline.engine.ProvingEngine;
import io.proofline.snark.Witness;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.WtnsReader;
import io.proofline.witness.InputJsonReader;
import tools.jackson.core.JsonParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Jobs as clients see them: validated submission (idempotent by {@code requestId}), durable queueing through the job
 * scheduler, status with live stages, proofs, cancellation from any instance.
 */
@Service
public class JobService {

    private static final Logger LOG = LoggerFactory.getLogger(JobService.class);
    /** Forces submissions' staged inputs to disk beside their check (blocking file I/O, one thread per job). */
    private static final ExecutorService DURABILITY = Executors.newVirtualThreadPerTaskExecutor();
    public static final int MAX_PARTITIONS = 1024;
    public static final int MAX_PAGE_SIZE = 500;

    /**
     * One partition of a submission, staged by a {@link JobUpload}: a {@code .wtns} or an {@code input.json} in
     * {@code file} ({@code size} bytes, SHA-256 {@code sha256} in hex, both taken while it was streamed there);
     * {@code field} names it in errors. Inputs travel as files, never as arrays: a witness of a large circuit is
     * tens of MiB.
     */
    public record NewPartition(PartitionInput.Format format, Path file, long size, String sha256, String field) {
    }

    /**
     * A submission; {@code priority}, {@code requestId}, {@code verify} and {@code deadlineSeconds} may be null.
     * {@code startedNanos} is the {@link System#nanoTime()} at which its handling began (its body then still arriving),
     * where the submit call's split ({@link IntakeTimings}) starts. {@code deadlineSeconds}: the job fails if it has
     * not finished this long after it was accepted.
     */
    public record NewJob(String circuitId, Priority priority, String requestId, Boolean verify,
                         List<NewPartition> partitions, long startedNanos, Long deadlineSeconds) {

        public NewJob(String circuitId, Priority priority, String requestId, Boolean verify,
                      List<NewPartition> partitions, long startedNanos) {
            this(circuitId, priority, requestId, verify, partitions, startedNanos, null);
        }

        /** A submission whose inputs were at hand when it was made. */
        public NewJob(String circuitId, Priority priority, String requestId, Boolean verify,
                      List<NewPartition> partitions) {
            this(circuitId, priority, requestId, verify, partitions, System.nanoTime());
        }
    }

    /** The job a submission made or, for a repeated {@code requestId}, found. */
    public record Submitted(JobRecord job, boolean created) {
    }

    /** A job with its partitions (live from the engine when it runs on this instance). */
    public record JobView(JobRecord job, List<PartitionRecord> partitions) {
    }

    private final JobStore store;
    private final CircuitService circuits;
    private final KeyCache keys;
    private final ProvingEngine engine;
    private final MemoryBudget budget;
    private final DataDirectory data;
    private final TransactionTemplate tx;
    private final Scheduler scheduler;
    private final JobRunner runner;
    private final PipelineProperties pipeline;
    private final TenantQuotas quotas;
    private final TenantUsageStore usage;
    private volatile boolean draining;

    JobService(JobStore store, CircuitService circuits, KeyCache keys, ProvingEngine engine, MemoryBudget budget,
               DataDirectory data, TransactionTemplate tx, Scheduler scheduler, JobRunner runner,
               PipelineProperties pipeline, TenantQuotas quotas, TenantUsageStore usage) {
        this.store = store;
        this.circuits = circuits;
        this.keys = keys;
        this.engine = engine;
        this.budget = budget;
        this.data = data;
        this.tx = tx;
        this.scheduler = scheduler;
        this.runner = runner;
        this.pipeline = pipeline;
        this.quotas = quotas;
        this.usage = usage;
    }

    /** Stops intake on this instance (draining for shutdown, or an admin's action). */
    public void drain() {
        draining = true;
        engine.drain();
    }

    public void resume() {
        draining = false;
        engine.resume();
    }

    /** Whether this instance takes new jobs. */
    public boolean isAcceptingWork() {
        return !draining && engine.isAcceptingWork();
    }

    /**
     * Queues a job owned by {@code tenant}. A {@code requestId} the tenant used before answers the job it made when
     * the submission is the same (a replay), and 409 when it differs.
     */
    public Submitted submit(Tenant tenant, NewJob request) {
        long received = System.nanoTime();
        String fingerprint = null;
        if (request.requestId() != null) {
            if (request.requestId().isBlank() || request.requestId().length() > 200) {
                throw InvalidFieldException.malformed("requestId", "requestId must have 1 to 200 characters");
            }
            fingerprint = RequestFingerprint.of(request);
            Optional<JobStore.ByRequestId> existing = store.findByRequestId(tenant.principal(), request.requestId());
            if (existing.isPresent()) {
                return replayed(existing.get(), fingerprint);
            }
        }
        if (request.circuitId() == null || request.circuitId().isBlank()) {
            throw InvalidFieldException.malformed("circuitId", "circuitId is required");
        }
        CircuitInfo circuit = circuits.get(tenant, request.circuitId());
        List<NewPartition> partitions = request.partitions();
        if (partitions == null || partitions.isEmpty()) {
            throw InvalidFieldException.malformed("partitions", "a job needs at least one partition");
        }
        if (partitions.size() > MAX_PARTITIONS) {
            throw InvalidFieldException.malformed("partitions", "at most " + MAX_PARTITIONS + " partitions per job");
        }
        checkDeadline(request.deadlineSeconds());
        // the staged files go to disk while they are checked (a read of the page cache, not of the disk)
        CompletableFuture<Void> forced = CompletableFuture.runAsync(() -> partitions.forEach(p -> forceFile(p.file())),
                DURABILITY);
        Priority priority = request.priority() == null ? Priority.NORMAL : request.priority();
        try {
            partitions.forEach(p -> check(p, circuit));
            checkFits(circuit);
        } catch (RuntimeException e) {
            awaitQuietly(forced, e);
            throw e;
        }
        String submitted = fingerprint;
        // the tenant's limits are checked and its job written under its lock: two of its submissions never pass
        // a limit together
        return quotas.underLock(tenant, () -> admitAndQueue(tenant, request, circuit, priority, submitted, forced,
                received));
    }

    private Submitted admitAndQueue(Tenant tenant, NewJob request, CircuitInfo circuit, Priority priority,
                                    String fingerprint, CompletableFuture<Void> forced, long received) {
        List<NewPartition> partitions = request.partitions();
        try {
            admit(tenant, priority, partitions);
        } catch (RuntimeException e) {
            awaitQuietly(forced, e);
            throw e;
        }
        long checked = System.nanoTime();

        String id = UUID.randomUUID().toString();
        Instant accepted = Instant.now();
        Instant deadlineAt = request.deadlineSeconds() == null ? null : accepted.plusSeconds(request.deadlineSeconds());
        JobRecord job = new JobRecord(id, circuit.id(), request.requestId(), JobState.QUEUED, priority,
                request.verify(), partitions.size(), null, 0, false, null, null, accepted, null, null, deadlineAt);
        List<PartitionRecord> rows = moveInputs(id, partitions, forced);
        long durable = System.nanoTime();
        String submitted = fingerprint;
        try {
            tx.executeWithoutResult(status -> {
                store.insert(job, tenant.principal(), submitted, rows);
                scheduler.schedule(new TaskInstance<Void>(JobSchedulingConfiguration.PROVE_TASK, id, () -> null,
                        priority.ordinal()), Instant.now());
                store.recordIntake(id, new IntakeTimings(millis(received - request.startedNanos()),
                        millis(checked - received), millis(durable - checked), millis(System.nanoTime() - durable)));
                // The scheduler's own immediate check runs before this transaction commits and cannot see the
                // task: look again once it is visible, instead of leaving the job to the next polling tick.
                TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                    @Override
                    public void afterCommit() {
                        scheduler.triggerCheckForDueExecutions();
                    }
                });
            });
        } catch (DuplicateKeyException sameRequestId) {
            deleteInputs(id);
            return replayed(store.findByRequestId(tenant.principal(), request.requestId()).orElseThrow(), fingerprint);
        } catch (RuntimeException e) {
            deleteInputs(id);
            throw e;
        }
        LOG.debug("job {} queued: circuit {}, {} partitions, {}", id, circuit.id(), partitions.size(), priority);
        return new Submitted(job, true);
    }

    /** A repeated requestId: the job it made when the submission is the same, else 409. */
    private static Submitted replayed(JobStore.ByRequestId existing, String fingerprint) {
        if (!fingerprint.equals(existing.fingerprint())) {
            throw new ConflictException("requestId", "requestId '" + existing.job().requestId()
                    + "' was used for a different submission (job " + existing.job().id() + ")");
        }
        return new Submitted(existing.job(), false);
    }

    public JobView get(Tenant tenant, String id) {
        JobRecord job = find(tenant, id);
        List<PartitionRecord> partitions = store.partitions(id);
        Optional<JobStatus> live = runner.liveStatus(id);
        if (live.isPresent() && !job.status().isTerminal()) {
            List<PartitionRecord> merged = new ArrayList<>();
            for (PartitionRecord p : partitions) {
                PartitionStatus s = p.index() < live.get().partitions().size()
                        ? live.get().partitions().get(p.index()) : null;
                merged.add(s == null ? p : new PartitionRecord(p.jobId(), p.index(), p.format(), p.bytes(), s.stage(),
                        s.device(), Timings.of(s.timings())));
            }
            JobRecord withTimings = new JobRecord(job.id(), job.circuitId(), job.requestId(), job.status(),
                    job.priority(), job.verify(), job.partitions(), job.owner(), job.attempts(),
                    job.cancelRequested(), job.error(), Timings.of(live.get().timings())
                    .withIntake(job.timings() == null ? null : job.timings().intake()), job.createdAt(),
                    job.startedAt(), job.finishedAt(), job.deadlineAt());
            return new JobView(withTimings, merged);
        }
        return new JobView(job, partitions);
    }

    /** The jobs {@code tenant} may see (the console: all), newest first. */
    public JobPage list(Tenant tenant, Optional<JobState> status, int page, int size) {
        if (page < 0) {
            throw InvalidFieldException.malformed("page", "page must not be negative");
        }
        if (size < 1 || size > MAX_PAGE_SIZE) {
            throw InvalidFieldException.malformed("size", "size must be 1 to " + MAX_PAGE_SIZE);
        }
        return store.list(tenant, status, page, size);
    }

    /**
     * The proofs of a DONE job, in partition order, handed to {@code each} one at a time as they are read from the
     * store; {@code before} runs once the job is known to be the tenant's and DONE, before the first proof.
     */
    public void forEachProof(Tenant tenant, String id, Runnable before, Consumer<StoredProof> each) {
        JobRecord job = find(tenant, id);
        if (job.status() != JobState.DONE) {
            throw new ConflictException("id", "job " + id + " is " + job.status() + (job.error() == null ? ""
                    : ": " + job.error()) + "; proofs exist only for DONE jobs");
        }
        before.run();
        store.forEachProof(id, each);
    }

    /** Cancels a job wherever it is; answers its state afterwards. */
    public JobView cancel(Tenant tenant, String id) {
        JobRecord job = find(tenant, id);
        if (job.status().isTerminal()) {
            throw new ConflictException("id", "job " + id + " has already finished (" + job.status() + ")");
        }
        if (store.cancelQueued(id)) {
            try {
                scheduler.cancel(new TaskInstance<Void>(JobSchedulingConfiguration.PROVE_TASK, id));
            } catch (RuntimeException pickedMeanwhile) {
                // its runner sees the job CANCELLED and ends at once
            }
        } else if (store.requestCancel(id)) {
            runner.cancelLocal(id);
        }
        return get(tenant, id);
    }

    /** The job if {@code tenant} may see it; another key's job is as absent as one that never existed. */
    private JobRecord find(Tenant tenant, String id) {
        return (DataDirectory.isJobId(id) ? store.find(id, tenant) : Optional.<JobRecord>empty())
                .orElseThrow(() -> new NotFoundException("id", "no job " + id));
    }

    private void check(NewPartition p, CircuitInfo circuit) {
        if (p.size() == 0) {
            throw InvalidFieldException.malformed(p.field(), p.field() + " is empty");
        }
        switch (p.format()) {
            case WTNS -> {
                // the staged file mapped and its header and sizes checked in place: nothing read onto the heap
                try (Arena arena = Arena.ofConfined(); FileChannel channel = FileChannel.open(p.file(),
                        StandardOpenOption.READ); Witness w = WtnsReader.view(channel.map(FileChannel.MapMode.READ_ONLY,
                        0, p.size(), arena), p.field())) {
                    if (!w.curve().name().equals(circuit.curve())) {
                        throw InvalidFieldException.unprocessable(p.field(), "the witness is over " + w.curve()
                                + " but circuit " + circuit.id() + " is over " + circuit.curve());
                    }
                    if (w.size() != circuit.variables()) {
                        throw InvalidFieldException.unprocessable(p.field(), "the witness has " + w.size()
                                + " values but the circuit has " + circuit.variables() + " variables");
                    }
                } catch (FormatException e) {
                    throw InvalidFieldException.unprocessable(p.field(), e.getMessage());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the staged " + p.field(), e);
                } catch (ServiceException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw InvalidFieldException.unprocessable(p.field(), "not a .wtns witness: " + e);
                }
            }
            case INPUT_JSON -> {
                if (!circuit.hasWasm()) {
                    throw InvalidFieldException.unprocessable(p.field(), "circuit " + circuit.id()
                            + " was registered without a wasm: submit .wtns witnesses");
                }
                // streamed again (the staged, flattened file), counting: an input with more values than the circuit
                // has variables can never be flattened into its witness's reservation, so it is refused now
                long[] values = new long[1];
                try (JsonParser parser = InputJsonReader.parser(Files.newInputStream(p.file()))) {
                    InputJsonReader.read(parser, new InputJsonReader.Sink() {
                        @Override
                        public void start(String signal) {
                        }

                        @Override
                        public void value(String signal, JsonParser token) {
                            if (++values[0] >= circuit.variables()) {
                                throw InvalidFieldException.unprocessable(p.field(), "the input has more values "
                                        + "than circuit " + circuit.id() + " has inputs (it has " + circuit.variables()
                                        + " variables)");
                            }
                        }

                        @Override
                        public void end(String signal, long count) {
                        }
                    });
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the staged " + p.field(), e);
                } catch (ServiceException e) {
                    throw e;
                } catch (RuntimeException e) {
                    throw InvalidFieldException.unprocessable(p.field(), "not a circuit input: " + e.getMessage());
                }
            }
        }
    }

    /** A deadline is a positive number of seconds, at most {@code proofline.pipeline.max-deadline}. */
    private void checkDeadline(Long seconds) {
        if (seconds == null) {
            return;
        }
        long max = pipeline.maxDeadline().toSeconds();
        if (seconds < 1 || seconds > max) {
            throw InvalidFieldException.unprocessable("deadlineSeconds", "deadlineSeconds must be 1 to " + max
                    + " (proofline.pipeline.max-deadline is " + pipeline.maxDeadline() + "), not " + seconds);
        }
    }

    /** A job whose one partition, with the circuit's key, can never fit the budget is refused now. */
    private void checkFits(CircuitInfo circuit) {
        long partition = PartitionFootprint.groth16(new CircuitRef(circuit.id(), circuit.variables(),
                circuit.domainSize(), circuit.publicSignals())).total();
        long needed = partition + keys.keyBytes(circuit.id());
        if (needed > budget.total()) {
            throw InvalidFieldException.unprocessable("circuitId", "one partition of circuit " + circuit.id()
                    + " needs " + needed + " B with its key; the memory budget is " + budget.total() + " B");
        }
    }

    /**
     * The job may be queued: this instance takes work, the tenant's limits allow it ({@link TenantQuotas}), and the
     * partitions not yet proved, of every tenant, leave room for it in {@code queue-capacity}.
     */
    private void admit(Tenant tenant, Priority priority, List<NewPartition> partitions) {
        if (!isAcceptingWork()) {
            throw new BusyException("this instance is draining; submit to another instance", pipeline.retryAfter(),
                    true);
        }
        quotas.admitJob(tenant, priority, partitions.size(), partitions.stream().mapToLong(NewPartition::size).sum());
        long queued = usage.unprovedPartitions();
        if (queued + partitions.size() > pipeline.queueCapacity()) {
            throw new BusyException("queue full: " + queued + " of " + pipeline.queueCapacity()
                    + " partitions not yet proved, the job needs " + partitions.size(), pipeline.retryAfter(), false);
        }
    }

    /**
     * The staged inputs become the job's by rename (the staging area is in the same data directory), each on disk
     * ({@code forced}: their files) with its directory entry before the job's row can commit, so that a job that
     * exists can always be read, after a crash too.
     */
    private List<PartitionRecord> moveInputs(String id, List<NewPartition> partitions, CompletableFuture<Void> forced) {
        List<PartitionRecord> rows = new ArrayList<>();
        Path dir = data.job(id);
        try {
            // the files keep their staged names until they are forced: the forcing opens them by name
            forced.join();
            Files.createDirectories(dir);
            for (int i = 0; i < partitions.size(); i++) {
                NewPartition p = partitions.get(i);
                Files.move(p.file(), JobRunner.inputFile(data, id, i, p.format()), StandardCopyOption.ATOMIC_MOVE);
                rows.add(new PartitionRecord(id, i, p.format(), p.size(), null, null, null));
            }
            forceFile(dir);
            forceFile(dir.getParent());
        } catch (CompletionException e) {
            deleteInputs(id);
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        } catch (IOException e) {
            awaitQuietly(forced, e);
            deleteInputs(id);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            awaitQuietly(forced, e);
            deleteInputs(id);
            throw e;
        }
        return rows;
    }

    /** Writes a file (or a directory's entries) through to the disk. */
    private static void forceFile(Path path) {
        try (FileChannel channel = FileChannel.open(path, Files.isDirectory(path) ? StandardOpenOption.READ
                : StandardOpenOption.WRITE)) {
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + " to disk", e);
        }
    }

    /** Waits for the forcing of a refused submission's files, which are removed afterwards. */
    private static void awaitQuietly(CompletableFuture<Void> forced, Throwable cause) {
        try {
            forced.join();
        } catch (RuntimeException e) {
            if (e != cause && e.getCause() != cause) {
                cause.addSuppressed(e);
            }
        }
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    private void deleteInputs(String id) {
        data.deleteJobInputs(id);
    }

    /**
     * How long ago the oldest job not yet finished (queued or running, on any instance) was accepted; zero when every
     * job has finished.
     */
    public Duration oldestUnfinishedAge() {
        return store.oldestUnfinishedSince().map(since -> Duration.between(since, Instant.now()))
                .filter(age -> !age.isNegative()).orElse(Duration.ZERO);
    }

    Duration retryAfter() {
        return pipeline.retryAfter();
    }
}
