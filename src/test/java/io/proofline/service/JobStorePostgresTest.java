package io.proofline.service;

/** {@link JobStoreTest} on PostgreSQL (Testcontainers, or the local server: {@link TestPostgres}). */
class JobStorePostgresTest extends JobStoreTest {

    @Override
    JobsDatabase open() throws Exception {
        return JobsDatabase.postgres();
    }
}
