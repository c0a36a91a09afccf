package io.proofline.service.jobs;

import io.proofline.service.JobsDatabase;
import io.proofline.service.Tenant;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.dao.DuplicateKeyException;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The job table's state changes, each one conditional UPDATE: against H2 here, PostgreSQL in the subclass. One
 * database per class (migrated once), emptied before each test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobStoreTest {

    static final String CIRCUIT = "c".repeat(64);
    static final String OTHER_CIRCUIT = "d".repeat(64);

    JobsDatabase db;
    JobStore store;

    JobsDatabase open() throws Exception {
        return JobsDatabase.h2();
    }

    @BeforeAll
    void database() throws Exception {
        db = open();
        store = db.jobs;
    }

    @BeforeEach
    void empty() {
        db.clear();
    }

    @AfterAll
    void close() throws Exception {
        db.close();
    }

    @Test
    void aJobAndItsPartitionsReadBackAsInserted() {
        Instant created = Instant.parse("2026-01-02T03:04:05.678Z");
        JobRecord job = db.queued(CIRCUIT, 3, created, "request-1");

        JobRecord read = store.find(job.id()).orElseThrow();
        assertThat(read).isEqualTo(job);
        assertThat(read.verify()).as("no verify flag given stays unset").isNull();
        assertThat(store.findByRequestId(JobsDatabase.PRINCIPAL, "request-1"))
                .contains(new JobStore.ByRequestId(job, "fingerprint-of-request-1"));
        assertThat(store.findByRequestId(JobsDatabase.PRINCIPAL, "request-2")).isEmpty();
        assertThat(store.findByRequestId("key-other", "request-1")).isEmpty();
        assertThat(store.find("00000000-0000-0000-0000-000000000000")).isEmpty();
        assertThat(store.partitions(job.id())).extracting(PartitionRecord::index, PartitionRecord::stage)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, Stage.QUEUED),
                        org.assertj.core.groups.Tuple.tuple(1, Stage.QUEUED),
                        org.assertj.core.groups.Tuple.tuple(2, Stage.QUEUED));
    }

    @Test
    void aRequestIdNamesOneJobOfEachKey() {
        db.queued(CIRCUIT, 1, Instant.now(), "same");
        assertThatThrownBy(() -> db.queued(CIRCUIT, 1, Instant.now(), "same"))
                .isInstanceOf(DuplicateKeyException.class);
        JobRecord other = db.queued("key-other", CIRCUIT, 1, Instant.now(), "same");
        assertThat(store.findByRequestId("key-other", "same")).hasValueSatisfying(j ->
                assertThat(j.job()).isEqualTo(other));
    }

    @Test
    void aKeySeesItsOwnJobsAndThoseFromBeforeTenancyTheConsoleSeesAll() {
        JobRecord mine = db.queued(CIRCUIT, 1);
        JobRecord theirs = db.queued("key-other", CIRCUIT, 1, Instant.now(), null);
        JobRecord legacy = db.queued(Tenant.EVERY_KEY, CIRCUIT, 1, Instant.now(), null);
        Tenant me = Tenant.apiKey(JobsDatabase.PRINCIPAL);

        assertThat(store.find(mine.id(), me)).contains(mine);
        assertThat(store.find(theirs.id(), me)).isEmpty();
        assertThat(store.find(legacy.id(), me)).contains(legacy);
        assertThat(store.find(theirs.id(), Tenant.CONSOLE)).contains(theirs);
        assertThat(store.list(me, Optional.empty(), 0, 10).jobs()).extracting(JobRecord::id)
                .containsExactlyInAnyOrder(mine.id(), legacy.id());
        assertThat(store.list(me, Optional.empty(), 0, 10).total()).isEqualTo(2);
        assertThat(store.list(Tenant.apiKey("key-other"), Optional.of(JobState.QUEUED), 0, 10).jobs())
                .extracting(JobRecord::id).containsExactlyInAnyOrder(theirs.id(), legacy.id());
        assertThat(store.list(Tenant.CONSOLE, Optional.empty(), 0, 10).total()).isEqualTo(3);
    }

    @Test
    void listIsNewestFirstFilteredAndPaged() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        JobRecord oldest = db.queued(CIRCUIT, 1, t, null);
        JobRecord middle = db.queued(CIRCUIT, 1, t.plusSeconds(1), null);
        JobRecord newest = db.queued(CIRCUIT, 1, t.plusSeconds(2), null);
        store.markRunning(middle.id(), "me", false);

        JobPage all = store.list(Tenant.CONSOLE, Optional.empty(), 0, 2);
        assertThat(all.jobs()).extracting(JobRecord::id).containsExactly(newest.id(), middle.id());
        assertThat(all.total()).isEqualTo(3);
        assertThat(store.list(Tenant.CONSOLE, Optional.empty(), 1, 2).jobs()).extracting(JobRecord::id).containsExactly(oldest.id());
        JobPage queued = store.list(Tenant.CONSOLE, Optional.of(JobState.QUEUED), 0, 10);
        assertThat(queued.jobs()).extracting(JobRecord::id).containsExactly(newest.id(), oldest.id());
        assertThat(queued.total()).isEqualTo(2);
    }

    @Test
    void runningCountsAttemptsAndKeepsTheFirstStart() {
        JobRecord job = db.queued(CIRCUIT, 2);
        assertThat(store.markRunning(job.id(), "instance-a", false)).isPresent();
        JobRecord first = store.find(job.id()).orElseThrow();
        assertThat(first.status()).isEqualTo(JobState.RUNNING);
        assertThat(first.owner()).isEqualTo("instance-a");
        assertThat(first.attempts()).isEqualTo(1);
        assertThat(first.startedAt()).isNotNull();

        // taken over by another instance after a missed lease
        assertThat(store.markRunning(job.id(), "instance-b", false)).isPresent();
        JobRecord second = store.find(job.id()).orElseThrow();
        assertThat(second.owner()).isEqualTo("instance-b");
        assertThat(second.attempts()).isEqualTo(2);
        assertThat(second.startedAt()).isEqualTo(first.startedAt());

        assertThat(db.finishNow(job.id(), JobState.FAILED, "boom", null, List.of())).isTrue();
        assertThat(store.markRunning(job.id(), "instance-a", false)).as("a finished job never runs again").isEmpty();
    }

    @Test
    void requeueClearsTheOwnerAndThePartitionsProgress() {
        JobRecord job = db.queued(CIRCUIT, 2);
        Lease lease = store.markRunning(job.id(), "instance-a", false).orElseThrow();
        StageTimings timings = StageTimings.ZERO.withTotal(Duration.ofMillis(1500));
        store.updatePartitions(lease, List.of(new PartitionStatus(0, Stage.PROVING, "gpu0", timings),
                new PartitionStatus(1, Stage.SYNTHESIZING, null, StageTimings.ZERO)));
        PartitionRecord proving = store.partitions(job.id()).getFirst();
        assertThat(proving.stage()).isEqualTo(Stage.PROVING);
        assertThat(proving.device()).isEqualTo("gpu0");
        assertThat(proving.timings()).isEqualTo(Timings.of(timings));

        store.requeue(lease);
        JobRecord requeued = store.find(job.id()).orElseThrow();
        assertThat(requeued.status()).isEqualTo(JobState.QUEUED);
        assertThat(requeued.owner()).isNull();
        assertThat(store.partitions(job.id())).allSatisfy(p -> {
            assertThat(p.stage()).isEqualTo(Stage.QUEUED);
            assertThat(p.device()).isNull();
            assertThat(p.timings()).isNull();
        });
    }

    @Test
    void aJobFinishesOnceAndItsProofsAreStoredOnce() {
        JobRecord job = db.queued(CIRCUIT, 2);
        store.markRunning(job.id(), "instance-a", false);
        Timings timings = new Timings(1, 2, 3, 4, 5, 6, 21);
        List<StoredProof> proofs = List.of(new StoredProof(0, "{\"p\":0}", "[\"1\"]"),
                new StoredProof(1, "{\"p\":1}", "[\"2\"]"));
        assertThat(db.finishNow(job.id(), JobState.DONE, null, timings, proofs)).isTrue();
        assertThat(db.finishNow(job.id(), JobState.FAILED, "late", null, List.of(proofs.getFirst())))
                .as("the second finisher loses").isFalse();

        JobRecord done = store.find(job.id()).orElseThrow();
        assertThat(done.status()).isEqualTo(JobState.DONE);
        assertThat(done.error()).isNull();
        assertThat(done.owner()).isNull();
        assertThat(done.timings()).isEqualTo(timings);
        assertThat(done.finishedAt()).isNotNull();
        assertThat(store.proofs(job.id())).containsExactlyElementsOf(proofs);
    }

    @Test
    void aLongErrorIsCutToTheColumn() {
        JobRecord job = db.queued(CIRCUIT, 1);
        assertThat(db.finishNow(job.id(), JobState.FAILED, "x".repeat(10_000), null, List.of())).isTrue();
        String error = store.find(job.id()).orElseThrow().error();
        assertThat(error).hasSize(4000).endsWith("...");
    }

    @Test
    void onlyAQueuedJobIsCancelledOnTheSpotAndOnlyAnUnfinishedOneCanBeAskedTo() {
        JobRecord queued = db.queued(CIRCUIT, 1);
        JobRecord running = db.queued(CIRCUIT, 1);
        store.markRunning(running.id(), "instance-a", false);

        assertThat(store.cancelQueued(queued.id())).isTrue();
        JobRecord cancelled = store.find(queued.id()).orElseThrow();
        assertThat(cancelled.status()).isEqualTo(JobState.CANCELLED);
        assertThat(cancelled.cancelRequested()).isTrue();
        assertThat(cancelled.finishedAt()).isNotNull();

        assertThat(store.cancelQueued(running.id())).isFalse();
        assertThat(store.requestCancel(running.id())).isTrue();
        JobRecord asked = store.find(running.id()).orElseThrow();
        assertThat(asked.status()).as("the instance running it ends it").isEqualTo(JobState.RUNNING);
        assertThat(asked.cancelRequested()).isTrue();

        assertThat(store.requestCancel(queued.id())).as("already finished").isFalse();
    }

    @Test
    void countsSeeOnlyTheirStates() {
        JobRecord a = db.queued(CIRCUIT, 2);
        JobRecord b = db.queued(CIRCUIT, 3);
        JobRecord c = db.queued(OTHER_CIRCUIT, 5);
        store.markRunning(b.id(), "me", false);
        db.finishNow(c.id(), JobState.FAILED, "no", null, List.of());

        assertThat(store.countByStatus(JobState.RUNNING)).isEqualTo(1);
        assertThat(store.countByStatus(JobState.FAILED)).isEqualTo(1);
        assertThat(store.countByStatus(JobState.DONE)).isZero();
        assertThat(store.unfinishedIds()).containsExactlyInAnyOrder(a.id(), b.id());
        assertThat(store.hasUnfinishedJobs(CIRCUIT)).isTrue();
        assertThat(store.hasUnfinishedJobs(OTHER_CIRCUIT)).isFalse();
    }

    @Test
    void finishedBeforeIsOldestFirstAndIgnoresUnfinishedJobs() {
        Instant now = Instant.now();
        JobRecord old = db.queued(CIRCUIT, 1);
        JobRecord older = db.queued(CIRCUIT, 1);
        JobRecord recent = db.queued(CIRCUIT, 1);
        JobRecord unfinished = db.queued(CIRCUIT, 1);
        for (JobRecord j : List.of(old, older, recent)) {
            db.finishNow(j.id(), JobState.DONE, null, null, List.of());
        }
        db.finishedAt(old.id(), now.minus(Duration.ofDays(8)));
        db.finishedAt(older.id(), now.minus(Duration.ofDays(9)));
        db.finishedAt(recent.id(), now.minus(Duration.ofDays(1)));

        Instant cutoff = now.minus(Duration.ofDays(7));
        assertThat(store.finishedBefore(cutoff, 10)).containsExactly(older.id(), old.id());
        assertThat(store.finishedBefore(cutoff, 1)).containsExactly(older.id());
        assertThat(store.finishedBefore(now.plusSeconds(1), 10)).doesNotContain(unfinished.id());
    }

    @Test
    void deleteRemovesTheJobItsPartitionsAndProofs() {
        JobRecord gone = db.queued(CIRCUIT, 2);
        JobRecord kept = db.queued(CIRCUIT, 1);
        db.finishNow(gone.id(), JobState.DONE, null, null, List.of(new StoredProof(0, "{}", "[]")));
        db.finishNow(kept.id(), JobState.DONE, null, null, List.of(new StoredProof(0, "{}", "[]")));

        store.delete(gone.id());
        assertThat(store.find(gone.id())).isEmpty();
        assertThat(store.partitions(gone.id())).isEmpty();
        assertThat(store.proofs(gone.id())).isEmpty();
        assertThat(store.find(kept.id())).isPresent();
        assertThat(store.proofs(kept.id())).hasSize(1);
    }
}
