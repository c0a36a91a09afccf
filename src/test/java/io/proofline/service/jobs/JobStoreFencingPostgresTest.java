package io.proofline.service.jobs;

import io.proofline.service.JobsDatabase;

/** {@link JobStoreFencingTest} on PostgreSQL (Testcontainers, or the local server: {@link io.proofline.service.TestPostgres}). */
class JobStoreFencingPostgresTest extends JobStoreFencingTest {

    @Override
    JobsDatabase open() throws Exception {
        return JobsDatabase.postgres();
    }
}
