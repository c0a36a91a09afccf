package io.proofline.service;

import io.proofline.engine.Priority;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitState;
import io.proofline.service.config.PipelineProperties;
import io.proofline.service.tenants.TenantPolicies;
import io.proofline.service.tenants.TenantPolicy;
import io.proofline.service.tenants.TenantQuotas;
import io.proofline.service.tenants.TenantUsage;
import io.proofline.service.tenants.TenantUsageStore;
import io.proofline.engine.JobState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Each per-tenant limit (issue #33) against usage counted in a real database: a priority the key may not use is
 * forbidden (403), and jobs in flight, the queue share, stored bytes, circuits and registrations in progress are
 * refused (429) once the key's usage reaches them, naming the limit, its value and the usage; another key and the
 * console are not held to the first key's limits.
 */
class TenantQuotasTest {

    static final Tenant LIMITED = Tenant.apiKey("key-limited");
    static final Tenant OTHER = Tenant.apiKey("key-other");
    static final TenantPolicy POLICY = new TenantPolicy(1, 0.25, Set.of(Priority.LOW, Priority.NORMAL), 2, 10_000,
            2, 1);

    private final JobsDatabase db = JobsDatabase.h2();
    private final TenantUsageStore usage = new TenantUsageStore(db.jdbc);
    private final TenantQuotas quotas = new TenantQuotas(new TenantPolicies(TenantPolicy.UNLIMITED,
            Map.of(LIMITED.principal(), POLICY)), usage, new PipelineProperties(0, 40, 2, 2, 1024,
            Duration.ofSeconds(30), Duration.ofSeconds(7), Duration.ofMinutes(10), Duration.ofDays(7)));

    @AfterEach
    void close() throws Exception {
        db.close();
    }

    @Test
    void aPriorityTheKeyMayNotUseIsForbiddenNamingItsPriorities() {
        QuotaExceededException e = catchThrowableOfType(QuotaExceededException.class,
                () -> quotas.admitJob(LIMITED, Priority.CRITICAL, 1, 100));
        assertThat(e.forbidden()).isTrue();
        assertThat(e.limit()).isEqualTo("priorities");
        assertThat(e.limitValue()).asList().containsExactly(Priority.LOW, Priority.NORMAL);
        assertThat(e.usage()).isEqualTo(Priority.CRITICAL);
        assertThat(e.field()).isEqualTo("priority");
        assertThatCode(() -> quotas.admitJob(OTHER, Priority.CRITICAL, 1, 100)).doesNotThrowAnyException();
        assertThatCode(() -> quotas.admitJob(Tenant.CONSOLE, Priority.CRITICAL, 1, 100)).doesNotThrowAnyException();
    }

    @Test
    void jobsInFlightAreLimitedAndFinishedJobsFreeTheirPlace() {
        db.queued(LIMITED.principal(), "c", 1, Instant.now(), null);
        String second = db.queued(LIMITED.principal(), "c", 1, Instant.now(), null).id();
        QuotaExceededException e = catchThrowableOfType(QuotaExceededException.class,
                () -> quotas.admitJob(LIMITED, Priority.LOW, 1, 100));
        assertThat(e.forbidden()).isFalse();
        assertThat(e.limit()).isEqualTo("max-jobs-in-flight");
        assertThat(e.limitValue()).isEqualTo(2);
        assertThat(e.usage()).isEqualTo(2L);
        assertThat(e.retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThatCode(() -> quotas.admitJob(OTHER, Priority.LOW, 1, 100)).doesNotThrowAnyException();
        assertThat(db.finishNow(second, JobState.DONE, null, null, java.util.List.of())).isTrue();
        assertThatCode(() -> quotas.admitJob(LIMITED, Priority.LOW, 1, 100)).doesNotThrowAnyException();
    }

    @Test
    void theQueueShareBoundsTheKeysUnprovedPartitions() {
        db.queued(LIMITED.principal(), "c", 6, Instant.now(), null);
        // a quarter of 40: 10 partitions; 6 wait
        assertThatCode(() -> quotas.admitJob(LIMITED, Priority.LOW, 4, 400)).doesNotThrowAnyException();
        QuotaExceededException e = catchThrowableOfType(QuotaExceededException.class,
                () -> quotas.admitJob(LIMITED, Priority.LOW, 5, 500));
        assertThat(e.limit()).isEqualTo("queue-share");
        assertThat(e.limitValue()).isEqualTo(10);
        assertThat(e.usage()).isEqualTo(6L);
        assertThat(e.getMessage()).contains("queue-share 0.25 of 40");
        assertThat(usage.unprovedPartitions()).isEqualTo(6);
        assertThatCode(() -> quotas.admitJob(OTHER, Priority.LOW, 30, 100)).doesNotThrowAnyException();
    }

    @Test
    void storedBytesCountTheKeysZkeysAndItsUnfinishedJobsInputs() {
        insertCircuit("a".repeat(64), 9_000, CircuitState.READY, LIMITED);
        db.queued(LIMITED.principal(), "c", 5, Instant.now(), null); // 5 × 100 B of inputs
        assertThat(usage.of(LIMITED.principal())).isEqualTo(new TenantUsage(1, 5, 9_500, 1, 0));
        QuotaExceededException job = catchThrowableOfType(QuotaExceededException.class,
                () -> quotas.admitJob(LIMITED, Priority.LOW, 1, 501));
        assertThat(job.limit()).isEqualTo("max-stored-bytes");
        assertThat(job.limitValue()).isEqualTo(10_000L);
        assertThat(job.usage()).isEqualTo(9_500L);
        assertThatCode(() -> quotas.admitJob(LIMITED, Priority.LOW, 1, 500)).doesNotThrowAnyException();
        QuotaExceededException zkey = catchThrowableOfType(QuotaExceededException.class,
                () -> quotas.admitStoredCircuit(LIMITED, 501));
        assertThat(zkey.limit()).isEqualTo("max-stored-bytes");
        assertThatCode(() -> quotas.admitStoredCircuit(OTHER, 1L << 40)).doesNotThrowAnyException();
    }

    @Test
    void circuitsAndRegistrationsInProgressAreLimited() {
        insertCircuit("b".repeat(64), 10, CircuitState.REGISTERING, LIMITED);
        QuotaExceededException registering = catchThrowableOfType(QuotaExceededException.class,
                () -> quotas.admitRegistration(LIMITED));
        assertThat(registering.limit()).isEqualTo("max-registrations");
        assertThat(registering.usage()).isEqualTo(1L);
        db.jdbc.sql("update circuits set state = 'READY'").update();
        assertThatCode(() -> quotas.admitRegistration(LIMITED)).doesNotThrowAnyException();
        insertCircuit("c".repeat(64), 10, CircuitState.READY, LIMITED);
        QuotaExceededException circuits = catchThrowableOfType(QuotaExceededException.class,
                () -> quotas.admitRegistration(LIMITED));
        assertThat(circuits.limit()).isEqualTo("max-circuits");
        assertThat(circuits.limitValue()).isEqualTo(2);
        assertThat(circuits.usage()).isEqualTo(2L);
        assertThatCode(() -> quotas.admitRegistration(OTHER)).doesNotThrowAnyException();
    }

    private void insertCircuit(String id, long zkeyBytes, CircuitState state, Tenant holder) {
        db.circuits.insert(new CircuitInfo(id, "c", "bn128", 1, 2, 1, 2, zkeyBytes, false, false, Instant.now(),
                state, null));
        db.circuits.grant(id, holder.principal());
    }
}
