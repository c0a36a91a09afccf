package io.proofline.service;

import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.CircuitStore;
import io.proofline.service.circuits.KeyCache;
import io.proofline.service.circuits.KeyCacheTest;
import io.proofline.service.config.RetryProperties;
import io.proofline.service.jobs.JobRecord;
import io.proofline.service.jobs.JobRunner;
import io.proofline.service.jobs.JobStore;
import io.proofline.service.jobs.PartitionRecord;
import io.proofline.service.jobs.StoredProof;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobState;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.Priority;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.Stage;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProverBackend;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Abuse family "two instances on PostgreSQL, one losing its connection" (issue #19): instance A runs a job, loses
 * the database while its partition proves, and instance B takes the job over (as db-scheduler does once A's
 * heartbeats are stale) and finishes it. When A reaches the database again its lease is gone: it cancels its run and
 * writes nothing, so B's result stands; afterwards A proves a new job as usual. Real engines, key caches and CPU
 * provers on the mul3 circuit, each instance with its own connections to one PostgreSQL schema.
 */
class TwoInstancesLosingTheDatabaseTest {

    static final String CIRCUIT = "e".repeat(64);
    static final Path MUL3 = KeyCacheTest.MUL3.resolve("bn128");

    /** A data source that refuses connections while {@link #down}, as a network partition would. */
    static final class FlakyDataSource extends DelegatingDataSource {
        volatile boolean down;

        FlakyDataSource(DataSource target) {
            super(target);
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (down) {
                throw new SQLTransientConnectionException("injected: the database cannot be reached");
            }
            return super.getConnection();
        }
    }

    /** The CPU backend, held in prove start while {@link #hold} is closed (a long proof); interruptible. */
    static final class HeldBackend implements ProverBackend {
        final ProverBackend cpu = new CpuProverBackend();
        final CountDownLatch arrived = new CountDownLatch(1);
        volatile CountDownLatch hold = new CountDownLatch(1);

        @Override
        public String name() {
            return "held-cpu";
        }

        @Override
        public PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc) {
            arrived.countDown();
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("cancelled while proving", e);
            }
            return cpu.proveStart(key, witness, abc);
        }

        @Override
        public Proof proveFinish(PendingProof pending) {
            return cpu.proveFinish(pending);
        }
    }

    /** One service instance: its own connections, store, key cache, engine and job runner. */
    final class Instance implements AutoCloseable {
        final JobStore store;
        final ProvingEngine engine;
        final KeyCache keys;
        final JobRunner runner;

        Instance(String name, DataSource dataSource, ProverBackend backend) {
            JdbcClient jdbc = JdbcClient.create(dataSource);
            store = new JobStore(jdbc);
            MemoryBudget budget = new MemoryBudget(64L << 20);
            BufferTracker tracker = new BufferTracker();
            keys = new KeyCache(data, budget, tracker, Duration.ofHours(1));
            EngineConfig config = EngineConfig.builder().budgetBytes(budget.total()).synthesisWorkers(1)
                    .finalizerThreads(1).workersPerDevice(1).build();
            engine = ProvingEngine.builder(config, new Groth16PartitionProver(keys,
                            List.of(new BackendDevice("cpu", backend)))).budget(budget).tracker(tracker).keys(keys)
                    .devices(List.of(new BackendDevice("cpu", backend))).start();
            runner = new JobRunner(store, new CircuitStore(jdbc), engine, data,
                    new TransactionTemplate(new DataSourceTransactionManager(dataSource)), event -> { },
                    new InstanceName(name), JobsDatabase.storeProperties(dir, 3),
                    new RetryProperties(Duration.ofMinutes(10), Duration.ofSeconds(10), Duration.ofMinutes(5)),
                new io.proofline.service.tenants.TenantPolicies(io.proofline.service.tenants.TenantPolicy.UNLIMITED,
                        java.util.Map.of()));
        }

        @Override
        public void close() {
            engine.close();
            keys.close();
        }
    }

    @TempDir
    Path dir;
    DataDirectory data;
    TestPostgres.Schema schema;
    FlakyDataSource connectionsOfA;
    HeldBackend held = new HeldBackend();
    Instance a;
    Instance b;
    ExecutorService background = Executors.newSingleThreadExecutor();

    @BeforeEach
    void twoInstances() throws Exception {
        schema = TestPostgres.newSchema();
        Flyway.configure().dataSource(schema.url(), schema.user(), schema.password()).schemas(schema.name()).load()
                .migrate();
        data = new DataDirectory(dir);
        Path circuit = Files.createDirectories(data.circuit(CIRCUIT));
        Files.copy(MUL3.resolve("circuit.zkey"), circuit.resolve(CircuitService.ZKEY));
        Files.copy(MUL3.resolve("verification_key.json"), circuit.resolve(CircuitService.VKEY));
        connectionsOfA = new FlakyDataSource(new DriverManagerDataSource(schema.url(), schema.user(),
                schema.password()));
        a = new Instance("instance-a", connectionsOfA, held);
        b = new Instance("instance-b", new DriverManagerDataSource(schema.url(), schema.user(), schema.password()),
                new CpuProverBackend());
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve("circuit.zkey"))) {
            new CircuitStore(JdbcClient.create(new DriverManagerDataSource(schema.url(), schema.user(),
                    schema.password()))).insert(new CircuitInfo(CIRCUIT, "mul3", "bn128", 2, key.nVars(),
                    key.nPublic(), key.domainSize(), Files.size(circuit.resolve(CircuitService.ZKEY)), false, false,
                    Instant.now()));
        }
    }

    @AfterEach
    void close() throws Exception {
        background.shutdownNow();
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        if (schema != null) {
            schema.close();
        }
    }

    private String queuedJob() throws Exception {
        String id = UUID.randomUUID().toString();
        b.store.insert(new JobRecord(id, CIRCUIT, null, JobState.QUEUED, Priority.NORMAL, true, 1, null, 0, false,
                        null, null, Instant.now().truncatedTo(ChronoUnit.MILLIS), null, null, null), "key-test", null,
                List.of(new PartitionRecord(id, 0, PartitionInput.Format.WTNS, Files.size(MUL3.resolve("witness.wtns")),
                        Stage.QUEUED, null, null)));
        Path input = JobRunner.inputFile(data, id, 0, PartitionInput.Format.WTNS);
        Files.createDirectories(input.getParent());
        Files.copy(MUL3.resolve("witness.wtns"), input);
        return id;
    }

    /** A's run of {@code job}, in the background, once its partition is proving (held there). */
    private Future<JobRunner.Outcome> runOnAUntilItProves(String job) throws InterruptedException {
        Future<JobRunner.Outcome> run = background.submit(() -> a.runner.run(job));
        assertThat(held.arrived.await(20, TimeUnit.SECONDS)).as("A's partition is proving").isTrue();
        return run;
    }

    @Test
    void theInstanceThatLostTheDatabaseCannotOverwriteTheJobTheOtherFinished() throws Exception {
        String job = queuedJob();
        Future<JobRunner.Outcome> runOfA = runOnAUntilItProves(job);

        connectionsOfA.down = true;
        JobRunner.Outcome outcomeOfB = b.runner.run(job);
        assertThat(outcomeOfB).isInstanceOf(JobRunner.Outcome.Finished.class);
        JobRecord done = b.store.find(job).orElseThrow();
        assertThat(done.status()).isEqualTo(JobState.DONE);
        List<StoredProof> proofs = b.store.proofs(job);
        assertThat(proofs).as("proved and verified by B (the job asks for verification)").hasSize(1);
        Thread.sleep(1500);  // A's run goes on meanwhile, its database writes failing

        connectionsOfA.down = false;
        assertThat(runOfA.get(20, TimeUnit.SECONDS)).isInstanceOf(JobRunner.Outcome.Finished.class);
        JobRecord after = b.store.find(job).orElseThrow();
        assertThat(after.status()).isEqualTo(JobState.DONE);
        assertThat(after.error()).isNull();
        assertThat(b.store.proofs(job)).containsExactlyElementsOf(proofs);
        assertThat(b.store.partitions(job)).allSatisfy(p -> assertThat(p.stage()).isEqualTo(Stage.DONE));

        held.hold.countDown();
        String next = queuedJob();
        assertThat(a.runner.run(next)).isInstanceOf(JobRunner.Outcome.Finished.class);
        assertThat(a.store.find(next).orElseThrow().status()).as("A proves again").isEqualTo(JobState.DONE);
        assertThat(a.engine.dispatcherHealth().alive()).isTrue();
    }

    /**
     * A computed proof is never thrown away (issue #33): A's partition finishes while A cannot reach the database, and
     * nobody takes the job over; A keeps trying to store the outcome (backing off) and stores it, DONE with its proof,
     * once the database is back.
     */
    @Test
    void aProofComputedWhileTheDatabaseIsDownIsStoredOnceItIsBack() throws Exception {
        String job = queuedJob();
        Future<JobRunner.Outcome> runOfA = runOnAUntilItProves(job);

        connectionsOfA.down = true;
        held.hold.countDown();
        Thread.sleep(2000); // the proof is done; A's writes fail meanwhile
        assertThat(runOfA.isDone()).as("A waits for the database instead of dropping the proof").isFalse();
        assertThat(b.store.find(job).orElseThrow().status()).isEqualTo(JobState.RUNNING);

        connectionsOfA.down = false;
        assertThat(runOfA.get(30, TimeUnit.SECONDS)).isInstanceOf(JobRunner.Outcome.Finished.class);
        JobRecord done = b.store.find(job).orElseThrow();
        assertThat(done.status()).as(String.valueOf(done.error())).isEqualTo(JobState.DONE);
        assertThat(b.store.proofs(job)).hasSize(1);
    }
}
