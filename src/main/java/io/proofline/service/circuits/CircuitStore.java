package io.proofline.service.circuits;

import io.proofline.service.Tenant;
import io.proofline.service.jobs.JobStore;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Registered circuits in the database (their files live under {@link io.proofline.service.DataDirectory#circuit}) and who may use them:
 * a circuit is shared by every key that registered its zkey, and a key that did not is told it does not exist.
 */
@Repository
public class CircuitStore {

    private final JdbcClient jdbc;

    public CircuitStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void insert(CircuitInfo c) {
        jdbc.sql("""
                insert into circuits (id, name, curve, constraints, variables, public_signals, domain_size, zkey_bytes,
                                      has_wasm, has_r1cs, created_at, state, failure)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(c.id(), c.name(), c.curve(), c.constraints(), c.variables(), c.publicSignals(), c.domainSize(),
                        c.zkeyBytes(), c.hasWasm(), c.hasR1cs(), JobStore.ts(c.createdAt()), c.state().name(),
                        c.failure())
                .update();
    }

    /**
     * Ends a REGISTERING circuit's check: READY, or FAILED with {@code failure}. False when it is not REGISTERING
     * (deleted meanwhile, or another instance ended the same check first).
     */
    boolean finishRegistration(String id, CircuitState state, String failure) {
        return jdbc.sql("""
                update circuits set state = ?, failure = ?, registering_owner = null, registering_heartbeat = null
                where id = ? and state = ?""")
                .params(state.name(), failure == null ? null : truncate(failure), id, CircuitState.REGISTERING.name())
                .update() == 1;
    }

    /**
     * Takes the lease on a REGISTERING circuit's check for {@code owner}: when nobody holds it, {@code owner} holds it
     * already, or its holder's heartbeat is older than {@code lapsedBefore} (that instance died). False otherwise.
     */
    boolean claimRegistration(String id, String owner, Instant now, Instant lapsedBefore) {
        return jdbc.sql("""
                update circuits set registering_owner = ?, registering_heartbeat = ?
                where id = ? and state = 'REGISTERING'
                  and (registering_owner is null or registering_owner = ? or registering_heartbeat < ?)""")
                .params(owner, JobStore.ts(now), id, owner, JobStore.ts(lapsedBefore)).update() == 1;
    }

    /** Renews {@code owner}'s lease on the check; false when it holds it no longer (taken over, or ended). */
    boolean renewRegistration(String id, String owner, Instant now) {
        return jdbc.sql("""
                update circuits set registering_heartbeat = ?
                where id = ? and state = 'REGISTERING' and registering_owner = ?""")
                .params(JobStore.ts(now), id, owner).update() == 1;
    }

    /** Gives the lease up (a check interrupted by a shutdown), so that the next instance takes it at once. */
    void releaseRegistration(String id, String owner) {
        jdbc.sql("""
                update circuits set registering_owner = null, registering_heartbeat = null
                where id = ? and registering_owner = ?""").params(id, owner).update();
    }

    /**
     * The REGISTERING circuits whose check nobody holds a live lease on: no holder (a check never started, or given
     * up) and registered before {@code lapsedBefore}, or a holder whose heartbeat is older than that.
     */
    List<String> lapsedRegistrations(Instant lapsedBefore) {
        return jdbc.sql("""
                select id from circuits where state = 'REGISTERING'
                  and ((registering_owner is null and created_at < ?) or registering_heartbeat < ?)
                order by created_at, id""")
                .params(JobStore.ts(lapsedBefore), JobStore.ts(lapsedBefore)).query(String.class).list();
    }

    /** The circuits whose check has not ended (a restart interrupted it, or another instance runs it). */
    List<String> registering() {
        return jdbc.sql("select id from circuits where state = ? order by created_at, id")
                .param(CircuitState.REGISTERING.name()).query(String.class).list();
    }

    private static String truncate(String s) {
        return s.length() <= 2000 ? s : s.substring(0, 1999) + "…";
    }

    /**
     * Inserts a placeholder row for {@code id}, for the caller's transaction to roll back: while it stands
     * uncommitted, another registration of the id (in any instance) waits on it, so the caller may take an orphaned
     * directory of the id away without racing a registration that is publishing it. False when the circuit is
     * registered.
     */
    boolean holdId(String id) {
        try {
            jdbc.sql("""
                    insert into circuits (id, name, curve, constraints, variables, public_signals, domain_size,
                                          zkey_bytes, has_wasm, has_r1cs, created_at)
                    values (?, '', '', 0, 0, 0, 0, 0, false, false, ?)""")
                    .params(id, JobStore.ts(Instant.now())).update();
            return true;
        } catch (DuplicateKeyException registered) {
            return false;
        }
    }

    public Optional<CircuitInfo> find(String id) {
        return jdbc.sql("select * from circuits where id = ?").param(id).query(CircuitStore::circuit).optional();
    }

    /** The ids of every registered circuit. */
    List<String> ids() {
        return jdbc.sql("select id from circuits").query(String.class).list();
    }

    /** The circuit, if {@code tenant} may use it. */
    public Optional<CircuitInfo> find(String id, Tenant tenant) {
        return jdbc.sql("select * from circuits c where id = :id" + usableBy(tenant)).param("id", id)
                .params(JobStore.tenantParams(tenant)).query(CircuitStore::circuit).optional();
    }

    /** The circuits {@code tenant} may use (the console: all). */
    public List<CircuitInfo> list(Tenant tenant) {
        return jdbc.sql("select * from circuits c where 1 = 1" + usableBy(tenant) + " order by created_at, id")
                .params(JobStore.tenantParams(tenant)).query(CircuitStore::circuit).list();
    }

    /** Lets {@code principal} use the circuit; false when it already could. */
    public boolean grant(String circuitId, String principal) {
        try {
            return jdbc.sql("insert into circuit_access (circuit_id, principal, granted_at) values (?, ?, ?)")
                    .params(circuitId, principal, JobStore.ts(Instant.now())).update() == 1;
        } catch (DuplicateKeyException already) {
            return false;
        }
    }

    public void revoke(String circuitId, String principal) {
        jdbc.sql("delete from circuit_access where circuit_id = ? and principal = ?").params(circuitId, principal)
                .update();
    }

    /** How many principals (or {@link Tenant#EVERY_KEY}) may use the circuit. */
    public long holders(String circuitId) {
        return jdbc.sql("select count(*) from circuit_access where circuit_id = ?").param(circuitId)
                .query(Long.class).single();
    }

    /** Whether every key may use the circuit: it was registered before tenancy (migration {@code V2__tenancy}). */
    public boolean usableByEveryKey(String circuitId) {
        return jdbc.sql("select count(*) from circuit_access where circuit_id = ? and principal = ?")
                .params(circuitId, Tenant.EVERY_KEY).query(Long.class).single() > 0;
    }

    public boolean delete(String id) {
        jdbc.sql("delete from circuit_access where circuit_id = ?").param(id).update();
        return jdbc.sql("delete from circuits where id = ?").param(id).update() == 1;
    }

    /** The SQL condition (after a where) that keeps the circuits {@code tenant} may use; none for the console. */
    private static String usableBy(Tenant tenant) {
        return tenant.isConsole() ? "" : " and exists (select 1 from circuit_access a where a.circuit_id = c.id"
                + " and a.principal in (:principal, '" + Tenant.EVERY_KEY + "'))";
    }

    private static CircuitInfo circuit(ResultSet rs, int row) throws SQLException {
        return new CircuitInfo(rs.getString("id"), rs.getString("name"), rs.getString("curve"),
                rs.getLong("constraints"), rs.getLong("variables"), rs.getInt("public_signals"),
                rs.getLong("domain_size"), rs.getLong("zkey_bytes"), rs.getBoolean("has_wasm"),
                rs.getBoolean("has_r1cs"), JobStore.instant(rs, "created_at"),
                CircuitState.valueOf(rs.getString("state")), rs.getString("failure"));
    }
}
