package io.proofline.service.jobs;

import io.proofline.service.JobsDatabase;

/** {@link JobStoreTest} on PostgreSQL (Testcontainers, or the local server: {@link io.proofline.service.TestPostgres}). */
class JobStorePostgresTest extends JobStoreTest {

    @Override
    JobsDatabase open() throws Exception {
        return JobsDatabase.postgres();
    }
}
