package io.proofline.service.jobs;

import io.proofline.service.JobsDatabase;
import org.junit.jupiter.api.Tag;

/** {@link JobStoreTest} on PostgreSQL (Testcontainers, or the local server: {@link io.proofline.service.TestPostgres}). */
@Tag("postgres")
class JobStorePostgresTest extends JobStoreTest {

    @Override
    JobsDatabase open() throws Exception {
        return JobsDatabase.postgres();
    }
}
