package io.proofline.service.jobs;

import io.proofline.service.DataDirectory;
import io.proofline.service.JobsDatabase;
import io.proofline.service.config.StoreProperties;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionInput;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Finished jobs leave the database and the data directory once the retention has passed, and nothing else does. */
class RetentionTest {

    static final Duration RETENTION = Duration.ofDays(7);

    @TempDir
    Path dir;
    JobsDatabase db;
    DataDirectory data;
    Retention retention;

    @BeforeEach
    void setUp() {
        db = JobsDatabase.h2();
        data = new DataDirectory(dir);
        StoreProperties properties = new StoreProperties(dir, RETENTION, DataSize.ofGigabytes(2),
                DataSize.ofMegabytes(256), Duration.ofSeconds(5), 6, Duration.ofSeconds(1), null, 3,
                Duration.ofMinutes(2), 10_000, Duration.ofHours(1));
        retention = new Retention(db.jobs, data, db.tx, properties);
    }

    @AfterEach
    void close() throws Exception {
        db.close();
    }

    @Test
    void removesOnlyJobsFinishedLongerAgoThanTheRetention() throws IOException {
        Instant now = Instant.now();
        JobRecord expired = finished(JobState.DONE, now.minus(RETENTION).minusSeconds(60));
        JobRecord expiredFailure = finished(JobState.FAILED, now.minus(RETENTION.multipliedBy(2)));
        JobRecord recent = finished(JobState.DONE, now.minus(RETENTION).plusSeconds(60));
        JobRecord stillQueued = db.queued(JobStoreTest.CIRCUIT, 1, now.minus(RETENTION.multipliedBy(3)), null);
        writeInput(stillQueued);

        assertThat(retention.purge()).isEqualTo(2);

        for (JobRecord gone : List.of(expired, expiredFailure)) {
            assertThat(db.jobs.find(gone.id())).isEmpty();
            assertThat(db.jobs.proofs(gone.id())).isEmpty();
            assertThat(data.job(gone.id())).doesNotExist();
        }
        assertThat(db.jobs.find(recent.id())).isPresent();
        assertThat(db.jobs.proofs(recent.id())).hasSize(1);
        assertThat(data.job(recent.id())).isDirectory();
        assertThat(db.jobs.find(stillQueued.id())).as("age alone never removes an unfinished job").isPresent();
        assertThat(data.job(stillQueued.id())).isDirectory();

        assertThat(retention.purge()).as("nothing left to remove").isZero();
    }

    private JobRecord finished(JobState state, Instant finishedAt) throws IOException {
        JobRecord job = db.queued(JobStoreTest.CIRCUIT, 1);
        writeInput(job);
        db.finishNow(job.id(), state, null, null,
                state == JobState.DONE ? List.of(new StoredProof(0, "{}", "[]")) : List.of());
        db.finishedAt(job.id(), finishedAt);
        return job;
    }

    private void writeInput(JobRecord job) throws IOException {
        Path input = JobRunner.inputFile(data, job.id(), 0, PartitionInput.Format.WTNS);
        Files.createDirectories(input.getParent());
        Files.write(input, new byte[100]);
    }
}
