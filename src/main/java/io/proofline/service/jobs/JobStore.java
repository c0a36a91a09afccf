package io.proofline.service.jobs;

import io.proofline.service.Tenant;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.Priority;
import io.proofline.engine.Stage;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Jobs, partitions and proofs in the database (JDBC; the schema is {@code db/migration}). Every state change is one
 * conditional UPDATE, so two instances racing on a job cannot both finish it and a proof is stored once. A run's
 * writes are fenced by its {@link Lease}: once another instance has claimed the job, they change nothing.
 */
@Repository
public class JobStore {

    /**
     * The most characters of a partition's public signals (snarkjs's {@code public.json}) the proofs table stores:
     * {@code proofs.public_signals varchar(1000000)} (V1). Registration refuses circuits whose signals may not fit.
     */
    public static final int PUBLIC_SIGNALS_CHARS = 1_000_000;

    /**
     * The rows' JSON (a job's timings): written by this service, read within constraints no such row comes near, so
     * that a damaged or foreign row cannot make a read of it large.
     */
    private static final JsonMapper JSON = JsonMapper.builder(tools.jackson.core.json.JsonFactory.builder()
            .streamReadConstraints(tools.jackson.core.StreamReadConstraints.builder().maxDocumentLength(64 * 1024)
                    .maxNestingDepth(8).maxNumberLength(40).maxStringLength(1024).maxNameLength(64).build())
            .build()).build();
    private static final List<String> UNFINISHED = List.of(JobState.QUEUED.name(), JobState.RUNNING.name());

    private final JdbcClient jdbc;

    public JobStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param principal   the job's owner ({@link Tenant#principal()})
     * @param fingerprint the submission's {@link RequestFingerprint}, kept to tell a replayed requestId from a reused
     *                    one; null without a requestId
     */
    public void insert(JobRecord job, String principal, String fingerprint, List<PartitionRecord> partitions) {
        jdbc.sql("""
                insert into jobs (id, circuit_id, request_id, status, priority, verify, partitions, attempts,
                                  cancel_requested, created_at, principal, request_fingerprint, deadline_at)
                values (?, ?, ?, ?, ?, ?, ?, 0, false, ?, ?, ?, ?)""")
                .params(job.id(), job.circuitId(), job.requestId(), job.status().name(), job.priority().name(),
                        job.verify(), job.partitions(), ts(job.createdAt()), principal, fingerprint,
                        ts(job.deadlineAt()))
                .update();
        for (PartitionRecord p : partitions) {
            jdbc.sql("insert into job_partitions (job_id, idx, format, bytes, stage) values (?, ?, ?, ?, ?)")
                    .params(p.jobId(), p.index(), p.format().name(), p.bytes(), Stage.QUEUED.name())
                    .update();
        }
    }

    /** The submit call's split of a job inserted in the same transaction. */
    void recordIntake(String id, IntakeTimings intake) {
        jdbc.sql("update jobs set intake = ? where id = ?").params(JSON.writeValueAsString(intake), id).update();
    }

    /** Who submitted the job ({@link Tenant#principal()}). */
    public Optional<String> principal(String id) {
        return jdbc.sql("select principal from jobs where id = ?").param(id).query(String.class).optional();
    }

    public Optional<JobRecord> find(String id) {
        return jdbc.sql("select * from jobs where id = ?").param(id).query(JobStore::job).optional();
    }

    /** The job, if {@code tenant} may see it. */
    public Optional<JobRecord> find(String id, Tenant tenant) {
        return jdbc.sql("select * from jobs where id = :id" + visibleTo(tenant)).param("id", id)
                .params(tenantParams(tenant)).query(JobStore::job).optional();
    }

    /** The job {@code principal} submitted with this requestId, with the submission's fingerprint. */
    Optional<ByRequestId> findByRequestId(String principal, String requestId) {
        return jdbc.sql("select * from jobs where principal = ? and request_id = ?").params(principal, requestId)
                .query((rs, n) -> new ByRequestId(job(rs, n), rs.getString("request_fingerprint"))).optional();
    }

    /** A job found by its requestId, and the fingerprint of the submission that made it. */
    record ByRequestId(JobRecord job, String fingerprint) {
    }

    /** The jobs {@code tenant} may see, newest first. */
    JobPage list(Tenant tenant, Optional<JobState> status, int page, int size) {
        String where = " where 1 = 1" + visibleTo(tenant) + (status.isPresent() ? " and status = :status" : "");
        Map<String, Object> params = new HashMap<>(tenantParams(tenant));
        status.ifPresent(s -> params.put("status", s.name()));
        long total = jdbc.sql("select count(*) from jobs" + where).params(params).query(Long.class).single();
        params.put("limit", size);
        params.put("offset", (long) page * size);
        List<JobRecord> jobs = jdbc.sql("select * from jobs" + where
                        + " order by created_at desc, id limit :limit offset :offset")
                .params(params).query(JobStore::job).list();
        return new JobPage(jobs, page, size, total);
    }

    /** The SQL condition (after a where) that keeps the rows {@code tenant} may see; none for the console. */
    private static String visibleTo(Tenant tenant) {
        return tenant.isConsole() ? "" : " and principal in (:principal, '" + Tenant.EVERY_KEY + "')";
    }

    /** The named parameters of {@link #visibleTo}. */
    public static Map<String, Object> tenantParams(Tenant tenant) {
        return tenant.isConsole() ? Map.of() : Map.of("principal", tenant.principal());
    }

    public List<PartitionRecord> partitions(String jobId) {
        return jdbc.sql("select * from job_partitions where job_id = ? order by idx").param(jobId)
                .query(JobStore::partition).list();
    }

    /**
     * Hands the job's proofs to {@code each} one row at a time, in partition order: a job's proofs are never all on
     * the heap at once (a partition's public signals may be a million characters).
     */
    public void forEachProof(String jobId, java.util.function.Consumer<StoredProof> each) {
        jdbc.sql("select idx, proof, public_signals from proofs where job_id = ? order by idx").param(jobId)
                .query((org.springframework.jdbc.core.RowCallbackHandler) rs -> each.accept(
                        new StoredProof(rs.getInt(1), rs.getString(2), rs.getString(3))));
    }

    public List<StoredProof> proofs(String jobId) {
        return jdbc.sql("select idx, proof, public_signals from proofs where job_id = ? order by idx").param(jobId)
                .query((rs, n) -> new StoredProof(rs.getInt(1), rs.getString(2), rs.getString(3))).list();
    }

    long countByStatus(JobState state) {
        return jdbc.sql("select count(*) from jobs where status = ?").param(state.name()).query(Long.class).single();
    }

    public List<String> unfinishedIds() {
        return jdbc.sql("select id from jobs where status in (:s)").param("s", UNFINISHED).query(String.class).list();
    }

    public boolean hasUnfinishedJobs(String circuitId) {
        return jdbc.sql("select count(*) from jobs where circuit_id = :c and status in (:s)")
                .param("c", circuitId).param("s", UNFINISHED).query(Long.class).single() > 0;
    }

    /**
     * Where a job stands for blame (issue #33): whether a run holds it now ({@code token}), whether it must run alone
     * ({@code suspect}), whether the run that holds it is alone ({@code isolated}), and the crashes charged to it.
     */
    public record RunState(JobState status, String token, boolean suspect, boolean isolated, boolean dispatched,
                    int crashes) {

        /** A run holds the job: when the scheduler hands it out again, that run's instance died (or lost it). */
        public boolean heldByADeadRun() {
            return status == JobState.RUNNING;
        }

        /** The dead run that holds it had begun its work: its death may be the job's doing. */
        public boolean diedAtWork() {
            return heldByADeadRun() && dispatched;
        }

        /** Whether it must run alone: a suspect, or about to become one (its run died at work beside others). */
        public boolean mustRunAlone() {
            return suspect || diedAtWork();
        }

        /** The crashes charged to it once the death of the run that holds it, if any, is blamed. */
        public int crashesOnceBlamed() {
            return crashes + (diedAtWork() && isolated ? 1 : 0);
        }
    }

    public Optional<RunState> runState(String id) {
        return jdbc.sql("select status, lease_token, suspect, isolated, dispatched, crashes from jobs where id = ?")
                .param(id).query((rs, n) -> new RunState(JobState.valueOf(rs.getString(1)), rs.getString(2),
                        rs.getBoolean(3), rs.getBoolean(4), rs.getBoolean(5), rs.getInt(6))).optional();
    }

    /**
     * The run holding {@code lease} begins its work (its first partition's synthesis): committed before it does, so
     * that a death before it is known to be none of this job's doing. False when the lease was lost.
     */
    public boolean markDispatched(Lease lease) {
        return jdbc.sql("update jobs set dispatched = true where id = ? and lease_token = ? and status = 'RUNNING'")
                .params(lease.jobId(), lease.token()).update() == 1;
    }

    /**
     * This instance starts the job: a new lease whose token fences off the writes of any earlier run; empty when the
     * job has finished. When a run still holds the job, the scheduler handed it out again because that run's instance
     * died (its heartbeat went stale), and the death is blamed here, in the same statement. A run that had not begun
     * its work ({@code dispatched}: it waited in the engine's queue) did not cause it: nothing changes for the job. A
     * run at work alone on its instance ({@code isolated}) caused it, and a crash is charged to the job; a run at work
     * beside others may have died of any of them, so the job becomes a suspect, charged nothing, that runs alone from
     * now on.
     *
     * @param isolated whether this instance runs nothing else while this run lasts (a suspect's run)
     */
    public Optional<Lease> markRunning(String id, String owner, boolean isolated) {
        String token = UUID.randomUUID().toString();
        int updated = jdbc.sql("""
                update jobs set crashes = crashes
                                          + case when status = 'RUNNING' and dispatched and isolated then 1 else 0 end,
                       suspect = (suspect or (status = 'RUNNING' and dispatched)), isolated = ?, dispatched = false,
                       status = 'RUNNING', owner = ?, lease_token = ?, attempts = attempts + 1,
                       started_at = coalesce(started_at, ?)
                where id = ? and status in ('QUEUED', 'RUNNING')""")
                .params(isolated, owner, token, ts(Instant.now()), id).update();
        if (updated != 1) {
            return Optional.empty();
        }
        return jdbc.sql("select attempts, retries from jobs where id = ? and lease_token = ?").params(id, token)
                .query((rs, n) -> new Lease(id, token, rs.getInt(1), rs.getInt(2))).optional();
    }

    /**
     * FAILED as a poison job before it runs again: {@code crashes} are charged to it (the one its last run's death
     * adds included). False when it is neither queued nor still held by the run with {@code token}.
     */
    public boolean quarantine(String id, String token, int crashes, String error) {
        return jdbc.sql("""
                update jobs set status = 'FAILED', crashes = ?, error = ?, finished_at = ?, owner = null,
                       lease_token = null, isolated = false
                where id = ? and (status = 'QUEUED' or (status = 'RUNNING' and lease_token = ?))""")
                .params(crashes, truncate(error), ts(Instant.now()), id, token).update() == 1;
    }

    /** FAILED without a run: a poison job, or one whose deadline passed while it was queued; false if not QUEUED. */
    public boolean failQueued(String id, String error) {
        return jdbc.sql("""
                update jobs set status = 'FAILED', error = ?, finished_at = ?
                where id = ? and status = 'QUEUED'""").params(truncate(error), ts(Instant.now()), id).update() == 1;
    }

    /** Queued jobs whose client's deadline passed before {@code now}, oldest deadline first. */
    public List<String> queuedPastDeadline(Instant now, int limit) {
        return jdbc.sql("""
                select id from jobs where status = 'QUEUED' and deadline_at < ?
                order by deadline_at limit ?""").params(ts(now), limit).query(String.class).list();
    }

    /** Those of {@code ids} that have a row (at most a few hundred at once: they go into one IN list). */
    public java.util.Set<String> existing(List<String> ids) {
        if (ids.isEmpty()) {
            return java.util.Set.of();
        }
        return new java.util.HashSet<>(jdbc.sql("select id from jobs where id in (:ids)").param("ids", ids)
                .query(String.class).list());
    }

    /** When the oldest job not yet finished (queued or running, on any instance) was accepted; empty if none. */
    public Optional<Instant> oldestUnfinishedSince() {
        return jdbc.sql("select min(created_at) from jobs where status in (:s)").param("s", UNFINISHED)
                .query((rs, n) -> instant(rs, 1)).optional();
    }

    /** Whether {@code lease} still owns the job (no other instance took it over, it did not finish). */
    boolean holdsLease(Lease lease) {
        return jdbc.sql("select count(*) from jobs where id = ? and lease_token = ? and status = 'RUNNING'")
                .params(lease.jobId(), lease.token()).query(Long.class).single() == 1;
    }

    /**
     * Back to the queue by this instance's own hand (shutdown, a full engine), for another instance or the next
     * start: the run does not count as an attempt. False when the lease was lost (nothing changed).
     */
    boolean requeue(Lease lease) {
        return handBack(lease, "retries", null);
    }

    /**
     * Back to the queue after a transient failure ({@code reason}, kept in the error column until the job ends): the
     * run counts as a retry instead of an attempt. False when the lease was lost (nothing changed).
     */
    boolean requeueAfterTransientFailure(Lease lease, String reason) {
        return handBack(lease, "retries + 1", reason);
    }

    private boolean handBack(Lease lease, String retries, String reason) {
        int updated = jdbc.sql("""
                update jobs set status = 'QUEUED', owner = null, lease_token = null, isolated = false,
                       dispatched = false, attempts = greatest(attempts - 1, 0), retries = %s, error = coalesce(cast(? as varchar(4000)), error)
                where id = ? and status = 'RUNNING' and lease_token = ?""".formatted(retries))
                .params(truncate(reason), lease.jobId(), lease.token()).update();
        if (updated != 1) {
            return false;
        }
        jdbc.sql("update job_partitions set stage = 'QUEUED', device = null, timings = null where job_id = ?")
                .param(lease.jobId()).update();
        return true;
    }

    /** The partitions' stages as the run sees them; false (nothing written) when the lease was lost. */
    boolean updatePartitions(Lease lease, List<PartitionStatus> partitions) {
        if (!holdsLease(lease)) {
            return false;
        }
        for (PartitionStatus p : partitions) {
            jdbc.sql("""
                    update job_partitions set stage = ?, device = ?, timings = ?
                    where job_id = ? and idx = ?
                      and exists (select 1 from jobs where id = ? and lease_token = ? and status = 'RUNNING')""")
                    .params(p.stage().name(), p.device(), json(Timings.of(p.timings())), lease.jobId(), p.index(),
                            lease.jobId(), lease.token())
                    .update();
        }
        return true;
    }

    /**
     * Finishes the job the lease owns; with DONE its proofs are stored in the same transaction (the caller's).
     *
     * @return false when the job had already finished (another instance, or a cancellation, got there first) or
     *         another instance has taken it over
     */
    public boolean finish(Lease lease, JobState state, String error, Timings timings, List<StoredProof> proofs) {
        String id = lease.jobId();
        int updated = jdbc.sql("""
                update jobs set status = ?, error = ?, timings = ?, finished_at = ?, owner = null, lease_token = null
                where id = ? and status = 'RUNNING' and lease_token = ?""")
                .params(state.name(), truncate(error), json(timings), ts(Instant.now()), id, lease.token()).update();
        if (updated != 1) {
            return false;
        }
        for (StoredProof p : proofs) {
            jdbc.sql("insert into proofs (job_id, idx, proof, public_signals) values (?, ?, ?, ?)")
                    .params(id, p.index(), p.proofJson(), p.publicSignalsJson()).update();
        }
        return true;
    }

    /** Cancels a job no instance has started; false if it has started or finished. */
    boolean cancelQueued(String id) {
        return jdbc.sql("""
                update jobs set status = 'CANCELLED', finished_at = ?, cancel_requested = true
                where id = ? and status = 'QUEUED'""").params(ts(Instant.now()), id).update() == 1;
    }

    /** Asks the instance running the job to cancel it; false if it has finished. */
    boolean requestCancel(String id) {
        return jdbc.sql("update jobs set cancel_requested = true where id = ? and status in ('QUEUED', 'RUNNING')")
                .param(id).update() == 1;
    }

    /** Finished jobs older than {@code before}, oldest first. */
    List<String> finishedBefore(Instant before, int limit) {
        return jdbc.sql("""
                select id from jobs where status in ('DONE', 'FAILED', 'CANCELLED') and finished_at < ?
                order by finished_at limit ?""").params(ts(before), limit).query(String.class).list();
    }

    void delete(String id) {
        jdbc.sql("delete from proofs where job_id = ?").param(id).update();
        jdbc.sql("delete from job_partitions where job_id = ?").param(id).update();
        jdbc.sql("delete from jobs where id = ?").param(id).update();
    }

    private static JobRecord job(ResultSet rs, int row) throws SQLException {
        Object verify = rs.getObject("verify");
        return new JobRecord(rs.getString("id"), rs.getString("circuit_id"), rs.getString("request_id"),
                JobState.valueOf(rs.getString("status")), Priority.valueOf(rs.getString("priority")),
                verify == null ? null : rs.getBoolean("verify"), rs.getInt("partitions"), rs.getString("owner"),
                rs.getInt("attempts"), rs.getBoolean("cancel_requested"), rs.getString("error"),
                withIntake(timings(rs.getString("timings")), rs.getString("intake")), instant(rs, "created_at"),
                instant(rs, "started_at"), instant(rs, "finished_at"), instant(rs, "deadline_at"));
    }

    private static PartitionRecord partition(ResultSet rs, int row) throws SQLException {
        return new PartitionRecord(rs.getString("job_id"), rs.getInt("idx"),
                PartitionInput.Format.valueOf(rs.getString("format")), rs.getLong("bytes"),
                Stage.valueOf(rs.getString("stage")), rs.getString("device"), timings(rs.getString("timings")));
    }

    public static OffsetDateTime ts(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static String json(Timings timings) {
        return timings == null ? null : JSON.writeValueAsString(timings);
    }

    private static Timings timings(String json) {
        return json == null ? null : JSON.readValue(json, Timings.class);
    }

    /** A job's timings with its submit call's split, where it has one (jobs from before V5 have none). */
    private static Timings withIntake(Timings timings, String intake) {
        if (intake == null) {
            return timings;
        }
        return (timings == null ? Timings.ZERO : timings).withIntake(JSON.readValue(intake, IntakeTimings.class));
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 4000 ? s : s.substring(0, 3997) + "...";
    }
}
