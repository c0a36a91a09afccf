package io.proofline.service.tenants;

import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each tenant's {@link TenantUsage}, counted from the jobs and circuits tables: every instance sees the same usage,
 * so a quota holds across instances (up to submissions that race on two instances at once).
 */
@Repository
public class TenantUsageStore {

    private static final String UNFINISHED = "j.status in ('QUEUED', 'RUNNING')";
    private static final String UNPROVED = "p.stage not in ('DONE', 'FAILED', 'CANCELLED')";

    private final JdbcClient jdbc;

    public TenantUsageStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The partitions of unfinished jobs not yet ended, of every tenant: what {@code queue-capacity} bounds. */
    public long unprovedPartitions() {
        return jdbc.sql("select count(*) from job_partitions p join jobs j on j.id = p.job_id where " + UNFINISHED
                + " and " + UNPROVED).query(Long.class).single();
    }

    public TenantUsage of(String principal) {
        return byTenant(principal).getOrDefault(principal, TenantUsage.NONE);
    }

    /** Every tenant with some usage, by principal. */
    public Map<String, TenantUsage> all() {
        return byTenant(null);
    }

    private Map<String, TenantUsage> byTenant(String only) {
        String jobsWhere = only == null ? "" : " and j.principal = :p";
        String accessWhere = only == null ? "" : " where a.principal = :p";
        Map<String, Object> params = only == null ? Map.of() : Map.of("p", only);
        Map<String, long[]> rows = new HashMap<>();
        jdbc.sql("select j.principal, count(distinct j.id), sum(case when " + UNPROVED + " then 1 else 0 end), "
                        + "coalesce(sum(p.bytes), 0) from jobs j join job_partitions p on p.job_id = j.id where "
                        + UNFINISHED + jobsWhere + " group by j.principal")
                .params(params).query((RowCallbackHandler) rs -> {
                    long[] r = rows.computeIfAbsent(rs.getString(1), k -> new long[5]);
                    r[0] = rs.getLong(2);
                    r[1] = rs.getLong(3);
                    r[2] += rs.getLong(4);
                });
        jdbc.sql("select a.principal, count(*), sum(case when c.state = 'REGISTERING' then 1 else 0 end), "
                        + "coalesce(sum(c.zkey_bytes), 0) from circuit_access a join circuits c on c.id = a.circuit_id"
                        + accessWhere + " group by a.principal")
                .params(params).query((RowCallbackHandler) rs -> {
                    long[] r = rows.computeIfAbsent(rs.getString(1), k -> new long[5]);
                    r[3] = rs.getLong(2);
                    r[4] = rs.getLong(3);
                    r[2] += rs.getLong(4);
                });
        Map<String, TenantUsage> usage = new TreeMap<>();
        rows.forEach((tenant, r) -> usage.put(tenant, new TenantUsage(r[0], r[1], r[2], r[3], r[4])));
        return usage;
    }
}
