package io.proofline.service.jobs;

import io.proofline.service.BusyException;
import io.proofline.service.JobsDatabase;
import io.proofline.service.config.SecurityProperties;
import io.proofline.engine.JobState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Parked job waits end when the job ends here, when the database says it ended elsewhere, or when time is up. */
class JobWaitsTest {

    static final String CIRCUIT = "c".repeat(64);

    JobsDatabase db;
    JobWaits waits;

    @BeforeEach
    void setUp() {
        db = JobsDatabase.h2();
        waits = new JobWaits(db.jobs, new SecurityProperties(List.of(), "admin", null, 50, "metrics", null, 5,
                Duration.ofMinutes(15), 4, Duration.ofMinutes(30), 3));
    }

    @AfterEach
    void tearDown() throws Exception {
        waits.close();
        db.close();
    }

    @Test
    void aWaitEndsAtOnceWhenThisInstanceFinishesTheJob() throws Exception {
        String job = db.queued(CIRCUIT, 1).id();
        CompletableFuture<Void> wait = waits.await("alice", job, Duration.ofSeconds(30));
        assertThat(wait).isNotDone();

        waits.finishedHere(new JobFinishedEvent(job, CIRCUIT, JobState.DONE, List.of(), ""));

        wait.get(1, TimeUnit.SECONDS);
        assertThat(waits.parked()).isZero();
    }

    @Test
    void aJobEndedElsewhereIsFoundByTheSweep() throws Exception {
        String job = db.queued(CIRCUIT, 1).id();
        CompletableFuture<Void> wait = waits.await("alice", job, Duration.ofSeconds(30));
        assertThat(wait).isNotDone();

        assertThat(db.jobs.cancelQueued(job)).isTrue();

        wait.get(JobWaits.SWEEP_PERIOD.multipliedBy(8).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(waits.parked()).isZero();
    }

    @Test
    void aWaitOnAJobThatAlreadyEndedOrIsGoneEndsAtOnce() throws Exception {
        String job = db.queued(CIRCUIT, 1).id();
        db.jobs.cancelQueued(job);

        waits.await("alice", job, Duration.ofSeconds(30)).get(1, TimeUnit.SECONDS);
        waits.await("alice", "no-such-job", Duration.ofSeconds(30)).get(1, TimeUnit.SECONDS);
    }

    @Test
    void aWaitEndsWhenItsTimeIsUpWithTheJobStillRunning() throws Exception {
        String job = db.queued(CIRCUIT, 1).id();
        long start = System.nanoTime();

        waits.await("alice", job, Duration.ofMillis(300)).get(5, TimeUnit.SECONDS);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(db.jobs.find(job).orElseThrow().status()).isEqualTo(JobState.QUEUED);
        assertThat(waits.parked()).isZero();
    }

    @Test
    void eachKeyParksAtMostItsShareAndGetsItBackWhenAWaitEnds() throws Exception {
        String job = db.queued(CIRCUIT, 1).id();
        List<CompletableFuture<Void>> alice = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            alice.add(waits.await("alice", job, Duration.ofSeconds(30)));
        }

        assertThatThrownBy(() -> waits.await("alice", job, Duration.ofSeconds(30)))
                .isInstanceOf(BusyException.class).hasMessageContaining("waits-per-key");
        CompletableFuture<Void> bob = waits.await("bob", job, Duration.ofSeconds(30));

        waits.finishedHere(new JobFinishedEvent(job, CIRCUIT, JobState.FAILED, List.of(), "x"));
        for (CompletableFuture<Void> w : alice) {
            w.get(1, TimeUnit.SECONDS);
        }
        bob.get(1, TimeUnit.SECONDS);
        String next = db.queued(CIRCUIT, 1).id();
        for (int i = 0; i < 3; i++) {
            assertThat(waits.await("alice", next, Duration.ofSeconds(30))).isNotDone();
        }
    }
}
