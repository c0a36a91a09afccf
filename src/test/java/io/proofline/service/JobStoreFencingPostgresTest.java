package io.proofline.service;

/** {@link JobStoreFencingTest} on PostgreSQL (Testcontainers, or the local server: {@link TestPostgres}). */
class JobStoreFencingPostgresTest extends JobStoreFencingTest {

    @Override
    JobsDatabase open() throws Exception {
        return JobsDatabase.postgres();
    }
}
