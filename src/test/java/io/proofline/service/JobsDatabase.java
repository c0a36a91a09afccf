package io.proofline.service;

import io.proofline.service.circuits.CircuitStore;
import io.proofline.service.config.StoreProperties;
import io.proofline.service.jobs.JobRecord;
import io.proofline.service.jobs.JobStore;
import io.proofline.service.jobs.PartitionRecord;
import io.proofline.service.jobs.StoredProof;
import io.proofline.service.jobs.Timings;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.Priority;
import io.proofline.engine.Stage;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcConnectionPool;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.unit.DataSize;

import javax.sql.DataSource;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A jobs database migrated by the service's own Flyway scripts, for the unit tests of the classes that read and write
 * it: an H2 in memory in PostgreSQL mode (the service's embedded default, with the flags of application.yml), or a
 * fresh schema on the PostgreSQL that {@link TestPostgres} chooses.
 */
public final class JobsDatabase implements AutoCloseable {

    final JdbcClient jdbc;
    public final JobStore jobs;
    public final CircuitStore circuits;
    public final TransactionTemplate tx;
    private final AutoCloseable cleanup;

    /** One connection for all statements: a test is single-threaded, and a new connection per statement is slow. */
    private JobsDatabase(DataSource dataSource, String schema, AutoCloseable cleanup) {
        var flyway = Flyway.configure().dataSource(dataSource);
        if (schema != null) {
            flyway.schemas(schema);
        }
        flyway.load().migrate();
        this.jdbc = JdbcClient.create(dataSource);
        this.jobs = new JobStore(jdbc);
        this.circuits = new CircuitStore(jdbc);
        this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.cleanup = cleanup;
    }

    public static JobsDatabase h2() {
        String url = "jdbc:h2:mem:jobs-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1";
        SingleConnectionDataSource dataSource = new SingleConnectionDataSource(url, "sa", "", true);
        return new JobsDatabase(dataSource, null, () -> {
            JdbcClient.create(dataSource).sql("shutdown").update();
            dataSource.destroy();
        });
    }

    /**
     * An H2 in memory as {@link #h2()}, through a pool of connections: for tests whose threads run transactions of
     * their own at the same time.
     */
    static JobsDatabase h2Pooled() {
        String url = "jdbc:h2:mem:jobs-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;DB_CLOSE_DELAY=-1";
        JdbcConnectionPool pool = JdbcConnectionPool.create(url, "sa", "");
        return new JobsDatabase(pool, null, () -> {
            JdbcClient.create(pool).sql("shutdown").update();
            pool.dispose();
        });
    }

    public static JobsDatabase postgres() throws SQLException {
        TestPostgres.Schema schema = TestPostgres.newSchema();
        var dataSource = new SingleConnectionDataSource(schema.url(), schema.user(), schema.password(), true);
        return new JobsDatabase(dataSource, schema.name(), () -> {
            dataSource.destroy();
            schema.close();
        });
    }

    /** {@link #postgres()} through a new connection per use: for tests whose threads run transactions at once. */
    static JobsDatabase postgresPooled() throws SQLException {
        TestPostgres.Schema schema = TestPostgres.newSchema();
        var dataSource = new DriverManagerDataSource(schema.url(), schema.user(), schema.password());
        return new JobsDatabase(dataSource, schema.name(), schema);
    }

    /** The owner of the jobs {@link #queued} inserts. */
    public static final String PRINCIPAL = "key-jobsdatabase";

    /** Inserts a QUEUED job of {@code partitions} WTNS partitions of 100 bytes each, created at {@code createdAt}. */
    public JobRecord queued(String circuitId, int partitions, Instant createdAt, String requestId) {
        return queued(PRINCIPAL, circuitId, partitions, createdAt, requestId);
    }

    /** {@link #queued(String, int, Instant, String)}, owned by {@code principal}. */
    public JobRecord queued(String principal, String circuitId, int partitions, Instant createdAt, String requestId) {
        JobRecord job = new JobRecord(UUID.randomUUID().toString(), circuitId, requestId, JobState.QUEUED,
                Priority.NORMAL, null, partitions, null, 0, false, null, null,
                createdAt.truncatedTo(ChronoUnit.MILLIS), null, null);
        List<PartitionRecord> records = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            records.add(new PartitionRecord(job.id(), i, PartitionInput.Format.WTNS, 100, Stage.QUEUED, null, null));
        }
        jobs.insert(job, principal, requestId == null ? null : "fingerprint-of-" + requestId, records);
        return job;
    }

    public JobRecord queued(String circuitId, int partitions) {
        return queued(circuitId, partitions, Instant.now(), null);
    }

    /** Finishes a job as a run of some instance would (claim, then finish under that lease). */
    public boolean finishNow(String id, JobState state, String error, Timings timings, List<StoredProof> proofs) {
        return jobs.markRunning(id, "test-instance").map(lease -> jobs.finish(lease, state, error, timings, proofs))
                .orElse(false);
    }

    /** The store settings of the tests: the defaults, data under {@code dir}, {@code maxAttempts} runs. */
    public static StoreProperties storeProperties(Path dir, int maxAttempts) {
        return new StoreProperties(dir, Duration.ofDays(7), DataSize.ofGigabytes(2), DataSize.ofMegabytes(256),
                Duration.ofSeconds(5), 6, Duration.ofSeconds(1), null, maxAttempts, Duration.ofMinutes(2), 10_000,
                Duration.ofHours(1));
    }

    /** Empties every table (the schema stays). */
    public void clear() {
        for (String table : new String[]{"proofs", "job_partitions", "jobs", "circuit_access", "circuits",
                "scheduled_tasks"}) {
            jdbc.sql("delete from " + table).update();
        }
    }

    /** Moves a finished job's finish time, as if it had finished then. */
    public void finishedAt(String jobId, Instant when) {
        jdbc.sql("update jobs set finished_at = ? where id = ?").params(JobStore.ts(when), jobId).update();
    }

    @Override
    public void close() throws Exception {
        cleanup.close();
    }
}
