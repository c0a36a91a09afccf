package io.proofline.service.jobs;

import io.proofline.service.JobsDatabase;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fencing and attempt counting in the job table (issue #19): once another instance has claimed a job, the writes of
 * the run that held it before change nothing; runs handed back by their instance do not count as attempts, runs
 * whose instance died do. Against H2 here, PostgreSQL in the subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobStoreFencingTest {

    static final String CIRCUIT = "c".repeat(64);

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

    private static List<PartitionStatus> at(Stage stage, String device) {
        return List.of(new PartitionStatus(0, stage, device, StageTimings.ZERO));
    }

    @Test
    void aRunTakenOverCanNeitherRequeueNorOverwriteTheNewOwnersWork() {
        JobRecord job = db.queued(CIRCUIT, 1);
        Lease stale = store.markRunning(job.id(), "instance-a").orElseThrow();
        Lease current = store.markRunning(job.id(), "instance-b").orElseThrow();
        assertThat(current.token()).isNotEqualTo(stale.token());
        assertThat(store.holdsLease(stale)).isFalse();
        assertThat(store.holdsLease(current)).isTrue();
        assertThat(store.updatePartitions(current, at(Stage.PROVING, "gpu1"))).isTrue();

        assertThat(store.updatePartitions(stale, at(Stage.FAILED, "gpu0"))).isFalse();
        assertThat(store.requeue(stale)).isFalse();
        assertThat(store.requeueAfterTransientFailure(stale, "stale")).isFalse();
        assertThat(store.finish(stale, JobState.FAILED, "stale", null, List.of())).isFalse();

        JobRecord untouched = store.find(job.id()).orElseThrow();
        assertThat(untouched.status()).isEqualTo(JobState.RUNNING);
        assertThat(untouched.owner()).isEqualTo("instance-b");
        assertThat(untouched.error()).isNull();
        assertThat(store.partitions(job.id())).singleElement().satisfies(p -> {
            assertThat(p.stage()).isEqualTo(Stage.PROVING);
            assertThat(p.device()).isEqualTo("gpu1");
        });

        assertThat(store.finish(current, JobState.DONE, null, null, List.of(new StoredProof(0, "{}", "[]"))))
                .isTrue();
        assertThat(store.holdsLease(current)).as("a finished job holds no lease").isFalse();
        assertThat(store.updatePartitions(current, at(Stage.FAILED, "gpu1"))).isFalse();
        assertThat(store.proofs(job.id())).hasSize(1);
    }

    @Test
    void aRequeuedJobsOldLeaseIsDeadToo() {
        JobRecord job = db.queued(CIRCUIT, 1);
        Lease first = store.markRunning(job.id(), "instance-a").orElseThrow();
        assertThat(store.requeue(first)).isTrue();
        assertThat(store.requeue(first)).as("once").isFalse();
        assertThat(store.finish(first, JobState.DONE, null, null, List.of())).isFalse();
        assertThat(store.find(job.id()).orElseThrow().status()).isEqualTo(JobState.QUEUED);
    }

    @Test
    void handedBackRunsAreNotAttemptsAndTransientOnesAreRetries() {
        JobRecord job = db.queued(CIRCUIT, 1);
        Lease first = store.markRunning(job.id(), "instance-a").orElseThrow();
        assertThat(first.attempts()).isEqualTo(1);
        assertThat(first.retries()).isZero();
        store.requeue(first);
        Lease second = store.markRunning(job.id(), "instance-a").orElseThrow();
        assertThat(second.attempts()).as("the shutdown's hand-back is not counted").isEqualTo(1);
        store.requeueAfterTransientFailure(second, "cannot read the key");
        JobRecord queued = store.find(job.id()).orElseThrow();
        assertThat(queued.attempts()).isZero();
        assertThat(queued.error()).isEqualTo("cannot read the key");
        assertThat(queued.owner()).isNull();

        Lease third = store.markRunning(job.id(), "instance-b").orElseThrow();
        assertThat(third.retries()).isEqualTo(1);
        Lease fourth = store.markRunning(job.id(), "instance-c").orElseThrow();  // instance-b died
        assertThat(fourth.attempts()).isEqualTo(2);
        assertThat(fourth.retries()).isEqualTo(1);
    }
}
