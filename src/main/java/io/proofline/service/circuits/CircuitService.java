package io.proofline.service.circuits;

import io.proofline.service.ConflictException;
import io.proofline.service.DataDirectory;
import io.proofline.service.ForbiddenException;
import io.proofline.service.InstanceName;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.NotFoundException;
import io.proofline.service.ServiceException;
import io.proofline.service.Tenant;
import io.proofline.service.tenants.TenantQuotas;
import io.proofline.service.TooLargeException;
import io.proofline.service.Upload;
import io.proofline.service.config.RegistrationProperties;
import io.proofline.service.config.StoreProperties;
import io.proofline.service.config.WitnessProperties;
import io.proofline.service.jobs.JobStore;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.KeyValidation;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.R1csReader;
import io.proofline.snark.format.ValidationProgress;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CalculatorOptions;
import io.proofline.witness.CircomWitnessCalculator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import jakarta.annotation.PreDestroy;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import io.proofline.service.BusyException;
import io.proofline.witness.WitnessLimits;
import io.proofline.engine.memory.WitnessHeapShare;
import java.util.concurrent.Semaphore;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * The circuit registry: uploads are streamed into a staging directory under {@code data/tmp} (hashing the zkey on
 * the way: its SHA-256 is the id), validated with the snark readers, and published: the circuit's row is inserted
 * and the staging directory renamed to {@code data/circuits/<id>} in one transaction, so that a circuit's row and
 * its files appear together or not at all. Proving keys are loaded on first use by {@link KeyCache}.
 *
 * <p>The uncommitted row is what makes the publication exclusive across instances: a second insert of the id
 * waits for it, then fails as a duplicate, and that registration is answered as one that came later (the same
 * parts: 200; another wasm or r1cs: 409). Within this instance a lock per id keeps registrations and deletions of
 * one circuit in turn.
 *
 * <p>What the request thread validates is what is quick: the zkey's header, verifying key (header and IC points,
 * fully) and coefficients, the r1cs and wasm against it. The circuit is published REGISTERING, and the check of
 * its point sections (every point on its curve and in the subgroup) runs on a bounded executor
 * ({@code proofline.registration.*}), with its progress shown by {@link #status}; it ends READY, or FAILED naming
 * the bad point. The request waits for it up to {@code answer-within}: a key whose check fails by then is removed
 * and answered 422 as before. The instance that checks a circuit holds a lease on the check, renewed by a
 * heartbeat ({@code proofline.store.heartbeat-interval}); a check whose lease lapses ({@code missed-heartbeats}: its
 * instance died) is taken over by another instance, and one given up at shutdown by the next to look. Only a READY
 * circuit takes jobs ({@link #get}: 409 otherwise).
 */
@Service
public class CircuitService {

    private static final Logger LOG = LoggerFactory.getLogger(CircuitService.class);
    public static final String ZKEY = "circuit.zkey";
    public static final String WASM = "circuit.wasm";
    public static final String R1CS = "circuit.r1cs";
    /** How long a registration waits for a slot to load its wasm in before it is answered 429. */
    static final Duration WASM_LOAD_WAIT = Duration.ofSeconds(30);
    public static final String VKEY = "verification_key.json";
    private static final String MAX_PUBLIC_SIGNALS = "proofline.store.max-public-signals";

    private final CircuitStore store;
    private final JobStore jobs;
    private final DataDirectory data;
    private final KeyCache keys;
    private final TransactionTemplate tx;
    private final long maxUpload;
    private final int maxPublicSignals;
    /** The sandbox the uploaded wasm is probed in: its code runs on a thread of its own under the load timeout. */
    private final CalculatorOptions calculatorOptions;
    /**
     * Registrations loading an uploaded wasm now: at most {@code proofline.registration.concurrent}, the number the
     * witness calculators' heap share counts them as.
     */
    private final Semaphore wasmLoads;
    private final RegistrationSteps steps;
    /** Registrations and deletions of one circuit take turns within this instance (striped by id). */
    private final ReentrantLock[] locks = new ReentrantLock[64];
    private final RegistrationProperties registration;
    /** Runs the checks of registering circuits, {@code concurrent} at a time. */
    private final ExecutorService checks;
    /** The threads that check one key's points ({@code validation-threads}). */
    private final ExecutorService pointThreads;
    /** The checks this instance runs, with their progress. */
    private final Map<String, RegistrationProgress> inFlight = new ConcurrentHashMap<>();
    /** Renews this instance's leases on its checks and takes over lapsed ones. */
    private final ScheduledExecutorService leases = Executors.newSingleThreadScheduledExecutor(
            daemonThreads("registration-lease-"));
    private final String instance;
    private final Duration heartbeat;
    private final Duration lapse;
    private volatile boolean stopping;
    /** Each tenant's limits on circuits, registrations and stored bytes; null (tests of registration alone): none. */
    private TenantQuotas quotas;

    /**
     * The service's: an uploaded wasm is loaded under an instance's share of the heap ({@link WitnessHeapShare}, which
     * counts {@code proofline.registration.concurrent} registrations among its instances).
     */
    @Autowired
    public CircuitService(CircuitStore store, JobStore jobs, DataDirectory data, KeyCache keys, TransactionTemplate tx,
                          StoreProperties properties, WitnessProperties witness, RegistrationProperties registration,
                          InstanceName instance, WitnessHeapShare witnessShare, TenantQuotas quotas) {
        this(store, jobs, data, keys, tx, properties, witness.calculatorOptions(witnessShare.perInstanceBytes()),
                registration, RegistrationSteps.NONE, instance);
        this.quotas = quotas;
    }

    public CircuitService(CircuitStore store, JobStore jobs, DataDirectory data, KeyCache keys, TransactionTemplate tx,
                          StoreProperties properties, WitnessProperties witness, RegistrationProperties registration,
                          RegistrationSteps steps, InstanceName instance) {
        this(store, jobs, data, keys, tx, properties, witness.calculatorOptions(), registration, steps, instance);
    }

    private CircuitService(CircuitStore store, JobStore jobs, DataDirectory data, KeyCache keys, TransactionTemplate tx,
                           StoreProperties properties, CalculatorOptions calculatorOptions,
                           RegistrationProperties registration, RegistrationSteps steps, InstanceName instance) {
        if (properties.maxPublicSignals() < 0) {
            throw new IllegalArgumentException(MAX_PUBLIC_SIGNALS + " must not be negative");
        }
        this.calculatorOptions = calculatorOptions;
        this.wasmLoads = new Semaphore(registration.concurrent());
        this.store = store;
        this.jobs = jobs;
        this.data = data;
        this.keys = keys;
        this.tx = tx;
        this.maxUpload = properties.maxCircuitSize().toBytes();
        this.maxPublicSignals = properties.maxPublicSignals();
        this.steps = steps;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock();
        }
        this.registration = registration;
        this.instance = instance.value();
        this.heartbeat = properties.heartbeatInterval();
        this.lapse = properties.heartbeatInterval().multipliedBy(properties.missedHeartbeats());
        this.checks = Executors.newFixedThreadPool(registration.concurrent(), daemonThreads("circuit-check-"));
        this.pointThreads = Executors.newFixedThreadPool(registration.threads(), daemonThreads("zkey-points-"));
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Interrupts the checks: their circuits stay REGISTERING and are checked again at the next start. */
    @PreDestroy
    public void stopChecks() {
        stopping = true;
        leases.shutdownNow();
        checks.shutdownNow();
        pointThreads.shutdownNow();
    }

    /** The outcome of a registration: the circuit, and whether it was new. */
    public record Registered(CircuitInfo circuit, boolean created) {
    }

    /**
     * Registers a circuit from its zkey and optional witness calculator and constraint system, for {@code tenant}.
     * A zkey registered before (by this or another key) is not stored twice: the tenant is given the use of the
     * circuit, and it counts as created for the tenant when the tenant could not use it before. Its files are never
     * replaced: a wasm or r1cs other than the circuit's is a 409 (leaving either out is not).
     *
     * @throws InvalidFieldException 422 naming the part that does not parse or does not match the zkey, or a zkey
     *                               with more public signals than can be stored
     * @throws TooLargeException     413 when a part exceeds {@code proofline.store.max-circuit-size}
     * @throws ConflictException     409 when the zkey is registered with another wasm or r1cs (or none)
     * @throws io.proofline.service.QuotaExceededException 429 when a circuit the tenant does not hold yet goes beyond
     *                               its max-circuits, max-registrations or max-stored-bytes
     */
    public Registered register(Tenant tenant, Upload zkey, Optional<Upload> wasm, Optional<Upload> r1cs,
                               String name) {
        if (name != null && name.length() > 200) {
            throw InvalidFieldException.malformed("name", "name is longer than 200 characters");
        }
        Path staging = null;
        try {
            staging = data.newStagingDirectory();
            String id = receive(zkey, staging.resolve(ZKEY), "zkey");
            Optional<String> wasmSha = wasm.isPresent()
                    ? Optional.of(receive(wasm.get(), staging.resolve(WASM), "wasm")) : Optional.empty();
            Optional<String> r1csSha = r1cs.isPresent()
                    ? Optional.of(receive(r1cs.get(), staging.resolve(R1CS), "r1cs")) : Optional.empty();
            steps.reached(RegistrationSteps.Step.STAGED);
            if (quotas != null && store.find(id, tenant).isEmpty()) { // a circuit the tenant holds adds nothing
                quotas.admitRegistration(tenant);
                quotas.admitStoredCircuit(tenant, Files.size(staging.resolve(ZKEY)));
            }
            ReentrantLock lock = lockOf(id);
            lock.lock();
            try { // not while this instance deletes the circuit: its files would be going
                Optional<CircuitInfo> existing = store.find(id);
                if (existing.isPresent()) {
                    return registeredBefore(tenant, existing.get(), wasmSha, r1csSha);
                }
            } finally {
                lock.unlock();
            }
            CircuitInfo info = validate(id, name, staging, wasm.isPresent(), r1cs.isPresent());
            steps.reached(RegistrationSteps.Step.VALIDATED);
            Registered registered = publish(tenant, info, staging, wasmSha, r1csSha);
            if (!registered.created() || registered.circuit().state() != CircuitState.REGISTERING) {
                return registered;
            }
            return awaitCheck(tenant, info, startCheck(info.id()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (staging != null) {
                deleteTreeQuietly(staging); // after a publication there is nothing left to delete
            }
        }
    }

    /**
     * Inserts the row and renames the staging directory into place in one transaction. The uncommitted row holds
     * the id, so a directory found there is an orphan (a crash between rename and commit) and is replaced; a
     * failure before the commit takes the renamed directory back out while the row still holds the id.
     */
    private Registered publish(Tenant tenant, CircuitInfo info, Path staging, Optional<String> wasmSha,
                               Optional<String> r1csSha) throws IOException {
        Path dir = data.circuit(info.id());
        ReentrantLock lock = lockOf(info.id());
        lock.lock();
        try {
            boolean[] published = {false};
            Boolean inserted;
            try {
                inserted = tx.execute(status -> {
                    try {
                        store.insert(info);
                    } catch (DuplicateKeyException raced) {
                        status.setRollbackOnly();
                        return false;
                    }
                    try {
                        steps.reached(RegistrationSteps.Step.INSERTED);
                        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                            LOG.warn("circuit {}: replacing a directory without a row (left by a crash)", info.id());
                            data.withdraw(dir);
                        }
                        DataDirectory.publish(staging, dir);
                        published[0] = true;
                        steps.reached(RegistrationSteps.Step.PUBLISHED);
                        store.grant(info.id(), tenant.principal());
                        steps.reached(RegistrationSteps.Step.GRANTED);
                        return true;
                    } catch (IOException | RuntimeException e) {
                        if (published[0] && withdrawQuietly(dir)) { // the uncommitted row still holds the id
                            published[0] = false;
                        }
                        throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
                    }
                });
            } catch (RuntimeException commitFailed) {
                if (published[0]) {
                    withdrawUnlessRegistered(info.id());
                }
                throw commitFailed;
            }
            if (!Boolean.TRUE.equals(inserted)) {
                CircuitInfo winner = store.find(info.id()).orElseThrow(() -> new ConflictException("zkey",
                        "circuit " + info.id() + " was registered and removed while this registration ran; "
                                + "register it again"));
                return registeredBefore(tenant, winner, wasmSha, r1csSha);
            }
        } finally {
            lock.unlock();
        }
        LOG.info("registered circuit {} ({}, {} constraints, {} variables)", info.id(), info.curve(),
                info.constraints(), info.variables());
        return new Registered(info, true);
    }

    /**
     * A registration of a zkey that is registered already: the tenant is given the use of the circuit when every
     * part it sent is the circuit's own; a wasm or r1cs that differs (or that the circuit lacks) is refused, since
     * changing a shared circuit's witness calculator would change what other keys' inputs prove.
     */
    private Registered registeredBefore(Tenant tenant, CircuitInfo circuit, Optional<String> wasmSha,
                                        Optional<String> r1csSha) throws IOException {
        if (circuit.state() == CircuitState.FAILED) {
            throw new ConflictException("zkey", "circuit " + circuit.id() + " failed its check (" + circuit.failure()
                    + "); delete it to register the zkey again");
        }
        Path dir = data.circuit(circuit.id());
        sameAsRegistered(circuit, "wasm", circuit.hasWasm(), dir.resolve(WASM), wasmSha);
        sameAsRegistered(circuit, "r1cs", circuit.hasR1cs(), dir.resolve(R1CS), r1csSha);
        return new Registered(circuit, store.grant(circuit.id(), tenant.principal()));
    }

    private void sameAsRegistered(CircuitInfo circuit, String part, boolean registered, Path stored,
                                  Optional<String> uploadSha) throws IOException {
        if (uploadSha.isEmpty()) {
            return;
        }
        String remedy = "; a registration never replaces a circuit's files: send the zkey without the " + part
                + " (or with the circuit's own) to use the circuit, or delete it and register it again";
        if (!registered) {
            throw new ConflictException(part, "circuit " + circuit.id() + " is already registered without a "
                    + part + remedy);
        }
        String storedSha = sha256(stored);
        if (!storedSha.equals(uploadSha.get())) {
            throw new ConflictException(part, "circuit " + circuit.id() + " is already registered with another "
                    + part + " (SHA-256 " + storedSha + ")" + remedy);
        }
    }

    /**
     * Removes circuit directories that have no row: a crash between the rename and the commit, or a registration of
     * a version that wrote the verification key in place before validating. Safe beside running registrations (in
     * any instance): each directory is withdrawn only while a placeholder row holds its id.
     */
    @EventListener(ApplicationReadyEvent.class)
    public void removeOrphanedDirectories() {
        Set<String> registered = new HashSet<>(store.ids());
        List<Path> dirs;
        try (Stream<Path> list = Files.list(data.circuits())) {
            dirs = list.toList();
        } catch (IOException e) {
            LOG.warn("cannot list {}: {}", data.circuits(), e.getMessage());
            return;
        }
        for (Path dir : dirs) {
            String id = dir.getFileName().toString();
            if (DataDirectory.isCircuitId(id) && !registered.contains(id)) {
                ReentrantLock lock = lockOf(id);
                lock.lock();
                try {
                    if (withdrawUnlessRegistered(id)) {
                        LOG.info("removed the directory of circuit {}, which has no row", id);
                    }
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Withdraws the circuit's directory unless its row exists (holding the id meanwhile); true if withdrawn. */
    private boolean withdrawUnlessRegistered(String id) {
        try {
            return Boolean.TRUE.equals(tx.execute(status -> {
                status.setRollbackOnly(); // the placeholder row only holds the id while the directory goes
                if (!store.holdId(id)) {
                    return false;
                }
                try {
                    data.withdraw(data.circuit(id));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return true;
            }));
        } catch (RuntimeException e) {
            LOG.warn("circuit {}: cannot remove its directory, which has no row (removed at the next start): {}", id,
                    e.toString());
            return false;
        }
    }

    /** The circuits {@code tenant} may use (the console: all). */
    public List<CircuitInfo> list(Tenant tenant) {
        return store.list(tenant);
    }

    /**
     * The circuit if {@code tenant} may use it for jobs: 404 when it may not (another key's circuit is as absent as
     * one never registered), 409 while it is REGISTERING or when it FAILED.
     */
    public CircuitInfo get(Tenant tenant, String id) {
        CircuitInfo circuit = find(tenant, id);
        return switch (circuit.state()) {
            case READY -> circuit;
            case REGISTERING -> throw new ConflictException("circuitId", "circuit " + id + " is REGISTERING: its "
                    + "proving key's points are being checked" + progressText(id) + "; submit when GET "
                    + "/api/v1/circuits/" + id + " says READY");
            case FAILED -> throw new ConflictException("circuitId", "circuit " + id + " FAILED its check: "
                    + circuit.failure());
        };
    }

    /** The circuit in whatever state, with the progress of its check while this instance runs it. */
    public CircuitStatus status(Tenant tenant, String id) {
        CircuitInfo circuit = find(tenant, id);
        RegistrationProgress progress = circuit.state() == CircuitState.REGISTERING ? inFlight.get(id) : null;
        return new CircuitStatus(circuit, progress == null ? List.of() : progress.sections());
    }

    /** The circuits {@code tenant} may use, in whatever state, each with its progress (the console: all). */
    public List<CircuitStatus> statuses(Tenant tenant) {
        return store.list(tenant).stream().map(c -> {
            RegistrationProgress progress = c.state() == CircuitState.REGISTERING ? inFlight.get(c.id()) : null;
            return new CircuitStatus(c, progress == null ? List.of() : progress.sections());
        }).toList();
    }

    private CircuitInfo find(Tenant tenant, String id) {
        return (DataDirectory.isCircuitId(id) ? store.find(id, tenant) : Optional.<CircuitInfo>empty())
                .orElseThrow(() -> new NotFoundException("circuitId", "no circuit " + id));
    }

    private String progressText(String id) {
        RegistrationProgress progress = inFlight.get(id);
        if (progress == null) {
            return "";
        }
        long checked = 0;
        long total = 0;
        for (RegistrationProgress.Section s : progress.sections()) {
            checked += s.checked();
            total += s.total();
        }
        return total == 0 ? "" : " (" + checked + " of " + total + " points)";
    }

    /**
     * Starts the check of a REGISTERING circuit's point sections on {@link #checks}; the future ends with the
     * circuit as it is then (READY, FAILED), or null when it was deleted meanwhile or the check was interrupted.
     */
    private CompletableFuture<CircuitInfo> startCheck(String id) {
        RegistrationProgress progress = new RegistrationProgress();
        if (inFlight.putIfAbsent(id, progress) != null) {
            return CompletableFuture.completedFuture(null); // this instance checks it already
        }
        Instant now = Instant.now();
        if (!store.claimRegistration(id, instance, now, now.minus(lapse))) {
            inFlight.remove(id);
            return CompletableFuture.completedFuture(null); // another instance checks it, its lease alive
        }
        try {
            return CompletableFuture.supplyAsync(() -> check(id, progress), checks);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            inFlight.remove(id);
            return CompletableFuture.completedFuture(null);
        }
    }

    private CircuitInfo check(String id, RegistrationProgress progress) {
        long start = System.nanoTime();
        try {
            Path zkey = data.circuit(id).resolve(ZKEY);
            KeyValidation later = new KeyValidation(PointCheck.LATER, pointThreads, registration.threads(),
                    ValidationProgress.NONE);
            String failure = null;
            try (ProvingKey key = ZkeyReader.read(zkey, later)) {
                ZkeyReader.checkPointSections(key, ZKEY, new KeyValidation(PointCheck.SUBGROUP, pointThreads,
                        registration.threads(), progress));
            } catch (FormatException e) {
                failure = e.getMessage();
            }
            steps.reached(RegistrationSteps.Step.CHECKED);
            CircuitState state = failure == null ? CircuitState.READY : CircuitState.FAILED;
            if (store.finishRegistration(id, state, failure)) {
                LOG.info("circuit {}: {} after checking its points for {} ms{}", id, state,
                        (System.nanoTime() - start) / 1_000_000, failure == null ? "" : ": " + failure);
            }
            return store.find(id).orElse(null);
        } catch (NoSuchFileException deleted) {
            return null;
        } catch (IOException | RuntimeException e) {
            if (stopping || Thread.currentThread().isInterrupted() || e instanceof CancellationException) {
                LOG.info("circuit {}: the check of its points was interrupted; it is checked again by the next "
                        + "instance to look", id);
                releaseQuietly(id);
                return null;
            }
            LOG.warn("circuit {}: the check of its points failed", id, e);
            store.finishRegistration(id, CircuitState.FAILED, "the check of its points failed: " + e);
            return store.find(id).orElse(null);
        } finally {
            inFlight.remove(id);
        }
    }

    /**
     * Waits up to {@code answer-within} for the check: a READY circuit is answered as created, one still checking
     * as REGISTERING (202); one that FAILED by then is removed and answered 422, as before registration was
     * asynchronous, so that nothing of a rejected upload stays.
     */
    private Registered awaitCheck(Tenant tenant, CircuitInfo info, CompletableFuture<CircuitInfo> check) {
        CircuitInfo now;
        try {
            now = check.get(registration.answerWithin().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return new Registered(info, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Registered(info, true);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        if (now == null) {
            return new Registered(store.find(info.id()).orElse(info), true);
        }
        if (now.state() == CircuitState.FAILED) {
            ReentrantLock lock = lockOf(info.id());
            lock.lock();
            try {
                removeCircuit(info.id());
            } finally {
                lock.unlock();
            }
            throw InvalidFieldException.unprocessable("zkey", now.failure());
        }
        return new Registered(now, true);
    }

    /**
     * Checks again the circuits a restart (of this or another instance) left REGISTERING whose lease nobody holds, and
     * from now on renews this instance's leases and takes over lapsed ones every heartbeat.
     */
    @EventListener(ApplicationReadyEvent.class)
    public void resumeChecks() {
        takeOverLapsed(store.registering());
        try {
            leases.scheduleWithFixedDelay(this::tendLeases, heartbeat.toMillis(), heartbeat.toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // shutting down
        }
    }

    /** One heartbeat: renews the leases on this instance's checks, and takes over checks whose lease lapsed. */
    public void tendLeases() {
        try {
            Instant now = Instant.now();
            for (String id : inFlight.keySet()) {
                if (!store.renewRegistration(id, instance, now)) {
                    LOG.warn("circuit {}: this instance's lease on the check of its points was lost", id);
                }
            }
            takeOverLapsed(store.lapsedRegistrations(now.minus(lapse)));
        } catch (RuntimeException e) {
            LOG.warn("cannot tend the registration leases now: {}", e.toString());
        }
    }

    private void takeOverLapsed(List<String> ids) {
        for (String id : ids) {
            if (!inFlight.containsKey(id) && !stopping) {
                CompletableFuture<CircuitInfo> check = startCheck(id);
                if (!check.isDone()) {
                    LOG.info("circuit {} is REGISTERING and nobody checks it: checking its points here", id);
                }
            }
        }
    }

    private void releaseQuietly(String id) {
        try {
            store.releaseRegistration(id, instance);
        } catch (RuntimeException e) {
            LOG.info("circuit {}: cannot give up the lease on its check ({}); it lapses", id, e.toString());
        }
    }

    /** snarkjs's {@code verification_key.json} of the circuit. */
    public String verificationKeyJson(Tenant tenant, String id) {
        find(tenant, id);
        try {
            return Files.readString(data.circuit(id).resolve(VKEY));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Gives up {@code tenant}'s use of a circuit; the circuit itself (row, files, cached key) is removed when no
     * other key may use it (or the console asks), and only while no unfinished job uses it. The row goes and the
     * directory is renamed away in one transaction, so a registration of the same zkey never meets half a directory.
     * A circuit from before tenancy, which every key may use, only the console deletes (403 for a key).
     */
    public void delete(Tenant tenant, String id) {
        find(tenant, id);
        ReentrantLock lock = lockOf(id);
        lock.lock();
        try {
            if (!tenant.isConsole() && store.usableByEveryKey(id)) {
                throw new ForbiddenException("circuitId", "circuit " + id + " was registered before tenancy and every"
                        + " key may use it; only the admin (console) may delete it");
            }
            if (!tenant.isConsole() && store.holders(id) > 1) {
                store.revoke(id, tenant.principal());
                return;
            }
            if (jobs.hasUnfinishedJobs(id)) {
                throw new ConflictException("circuitId", "circuit " + id + " has unfinished jobs; cancel them first");
            }
            removeCircuit(id);
        } finally {
            lock.unlock();
        }
    }

    /** Removes the row (and access) and the directory in one transaction; the caller holds the id's lock. */
    private void removeCircuit(String id) {
        Path dir = data.circuit(id);
        Path[] aside = {null};
        try {
            tx.executeWithoutResult(status -> {
                store.delete(id);
                try {
                    aside[0] = data.setAside(dir);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (RuntimeException e) {
            restoreQuietly(aside[0], dir); // the row is back (rolled back), so its files must be too
            throw e;
        }
        keys.forget(id);
        if (aside[0] != null) {
            deleteTreeQuietly(aside[0]);
        }
    }

    /** Puts the upload at {@code target}, refusing it past the limit; returns its SHA-256 in hex. */
    private String receive(Upload upload, Path target, String field) throws IOException {
        long size = upload.moveTo(target, maxUpload);
        if (size > maxUpload) {
            throw new TooLargeException(field, field + " is larger than the limit of " + maxUpload + " bytes");
        }
        if (size == 0) {
            throw InvalidFieldException.malformed(field, field + " is empty");
        }
        return sha256(target);
    }

    private CircuitInfo validate(String id, String name, Path staging, boolean hasWasm, boolean hasR1cs)
            throws IOException {
        Path zkey = staging.resolve(ZKEY);
        try (ProvingKey key = ZkeyReader.read(zkey, new KeyValidation(PointCheck.LATER, pointThreads,
                registration.threads(), ValidationProgress.NONE))) {
            requireStorablePublicSignals(key.nPublic(), key.curve());
            long constraints = constraintsOf(key);
            if (hasR1cs) {
                // Mapped and checked in place, none of it on the heap; a file claiming more constraints than the
                // zkey's domain holds (snarkjs: nConstraints + nPublic < domain) is refused from its header.
                R1cs r1cs = parse("r1cs", () -> R1csReader.read(staging.resolve(R1CS),
                        key.domainSize() - key.nPublic()));
                if (r1cs.curve() != key.curve() || r1cs.nWires() != key.nVars() || r1cs.nPublic() != key.nPublic()) {
                    throw InvalidFieldException.unprocessable("r1cs", "the r1cs (" + r1cs.curve() + ", "
                            + r1cs.nWires() + " wires, " + r1cs.nPublic() + " public) is not the zkey's circuit ("
                            + key.curve() + ", " + key.nVars() + " variables, " + key.nPublic() + " public)");
                }
                constraints = r1cs.nConstraints();
            }
            if (hasWasm) {
                CircomWitnessCalculator calculator = loadChecked(staging.resolve(WASM));
                if (!calculator.prime().equals(key.curve().fr().modulus()) || calculator.witnessSize() != key.nVars()) {
                    throw InvalidFieldException.unprocessable("wasm", "the wasm computes " + calculator.witnessSize()
                            + " values mod " + calculator.prime() + ", the zkey has " + key.nVars()
                            + " variables over " + key.curve());
                }
            }
            VerifyingKey vk = VerifyingKey.of(key);
            VerificationKeyJson.write(vk, PreparedVerifyingKey.prepare(vk).alphaBeta(), staging.resolve(VKEY));
            String display = name == null || name.isBlank() ? id.substring(0, 12) : name;
            return new CircuitInfo(id, display, key.curve().name(), constraints, key.nVars(), key.nPublic(),
                    key.domainSize(), Files.size(zkey), hasWasm, hasR1cs, Instant.now(), CircuitState.REGISTERING, null);
        } catch (FormatException e) {
            throw InvalidFieldException.unprocessable("zkey", e.getMessage());
        } catch (ServiceException e) {
            throw e;
        } catch (RuntimeException e) {
            // the readers check what they can; anything else a corrupt file trips is still the upload's fault
            throw InvalidFieldException.unprocessable("zkey", "not a valid Groth16 zkey: " + e);
        }
    }

    /**
     * Loads an uploaded wasm to check it, as one of the {@code proofline.registration.concurrent} registrations the
     * heap share counts (a 429 when they are all busy past {@link #WASM_LOAD_WAIT}), under the limits of its runs:
     * a module file too large for an instance's heap share is a 413 before it is read.
     */
    private CircomWitnessCalculator loadChecked(Path wasm) throws IOException {
        long size = Files.size(wasm);
        long most = calculatorOptions.limits().maxModuleBytes();
        if (size > most) {
            throw new TooLargeException("wasm", "the wasm is " + size + " bytes, more than the " + most + " a witness "
                    + "calculator may load: 1/" + WitnessLimits.MODULE_EXPANSION + " of its linear memory limit ("
                    + "proofline.witness.max-memory, at most an even share of half the max heap)");
        }
        try {
            if (!wasmLoads.tryAcquire(WASM_LOAD_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new BusyException("every registration slot (proofline.registration.concurrent) is checking a "
                        + "wasm; try again shortly", Duration.ofSeconds(5), false);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BusyException("interrupted while waiting to check the wasm", Duration.ofSeconds(5), false);
        }
        try {
            // A check: it computes no witness, so it records no graph (the key cache's calculator will).
            return CircomWitnessCalculator.load(wasm, calculatorOptions.withGraph(false));
        } catch (RuntimeException e) {
            throw InvalidFieldException.unprocessable("wasm", "not a circom witness calculator: " + e.getMessage());
        } finally {
            wasmLoads.release();
        }
    }

    /**
     * A proof's public signals are stored as one JSON text ({@link JobStore#PUBLIC_SIGNALS_CHARS}): a circuit
     * whose signals may not fit, or past {@code proofline.store.max-public-signals}, is refused now rather than
     * failing every job at the end.
     */
    private void requireStorablePublicSignals(int nPublic, SnarkCurve curve) {
        if (nPublic > maxPublicSignals) {
            throw InvalidFieldException.unprocessable("zkey", "the circuit has " + nPublic
                    + " public signals, more than the limit of " + maxPublicSignals + " (" + MAX_PUBLIC_SIGNALS + ")");
        }
        int storable = storablePublicSignals(curve.fr().modulus());
        if (nPublic > storable) {
            throw InvalidFieldException.unprocessable("zkey", "the circuit has " + nPublic
                    + " public signals, more than the " + storable + " over " + curve.name()
                    + " whose JSON the proofs table stores (" + JobStore.PUBLIC_SIGNALS_CHARS + " characters)");
        }
    }

    /**
     * How many public signals of the largest value ({@code r - 1}) fit the proofs table, in the JSON the service
     * stores; each signal adds the same number of characters, so two lengths give them all.
     */
    public static int storablePublicSignals(BigInteger modulus) {
        BigInteger largest = modulus.subtract(BigInteger.ONE);
        int one = PublicSignalsJson.toString(new BigInteger[]{largest}).length();
        int each = PublicSignalsJson.toString(new BigInteger[]{largest, largest}).length() - one;
        return (JobStore.PUBLIC_SIGNALS_CHARS - one) / each + 1;
    }

    /**
     * Without an r1cs: the zkey's A matrix holds {@code nPublic + 1} extra rows at {@code nConstraints + s}
     * (DESIGN §7), so the largest A row is {@code nConstraints + nPublic}.
     */
    private static long constraintsOf(ProvingKey key) {
        Coefficients c = key.coefficients();
        int maxRow = -1;
        for (int i = 0; i < c.count(); i++) {
            if (c.matrix(i) == Coefficients.A) {
                maxRow = Math.max(maxRow, c.row(i));
            }
        }
        return Math.max(0, maxRow - key.nPublic());
    }

    private interface Parse<T> {
        T run() throws IOException;
    }

    private static <T> T parse(String field, Parse<T> parse) throws IOException {
        try {
            return parse.run();
        } catch (FormatException e) {
            throw InvalidFieldException.unprocessable(field, e.getMessage());
        }
    }

    private static String sha256(Path file) throws IOException {
        MessageDigest sha = sha256();
        byte[] buffer = new byte[1 << 20];
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), sha)) {
            while (in.read(buffer) > 0) {
                // the digest reads along
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private ReentrantLock lockOf(String id) {
        return locks[Math.floorMod(id.hashCode(), locks.length)];
    }

    /** Withdraws {@code dir}; false (logged) when it could not be taken out of its place. */
    private boolean withdrawQuietly(Path dir) {
        try {
            data.withdraw(dir);
            return true;
        } catch (IOException e) {
            LOG.warn("cannot remove {} (tried again after the rollback, else at the next start): {}", dir,
                    e.getMessage());
            return !Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
        }
    }

    private static void restoreQuietly(Path aside, Path dir) {
        if (aside == null) {
            return;
        }
        try {
            DataDirectory.publish(aside, dir);
        } catch (IOException e) {
            LOG.error("circuit directory {} was set aside as {} and cannot be put back: {}", dir, aside,
                    e.getMessage());
        }
    }

    private static void deleteTreeQuietly(Path p) {
        try {
            DataDirectory.deleteTree(p);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", p, e.getMessage());
        }
    }
}
