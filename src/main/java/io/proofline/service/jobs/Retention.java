package io.proofline.service.jobs;

import io.proofline.service.DataDirectory;
import io.proofline.service.config.StoreProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The store's housekeeping, run as a recurring task of the job scheduler (one instance at a time does it): removes
 * finished jobs, their proofs and inputs {@code proofline.store.retention} after they finished; fails queued jobs whose
 * client's deadline passed (wherever they wait: a job handed back waits for its next run in the durable queue); and
 * removes input directories under {@code jobs/} that no job owns (a crash between their rename into place and the
 * job's commit), once untouched for {@code proofline.store.stale-tmp-after}.
 */
@Component
class Retention {

    private static final Logger LOG = LoggerFactory.getLogger(Retention.class);
    private static final int BATCH = 500;

    private final JobStore store;
    private final DataDirectory data;
    private final TransactionTemplate tx;
    private final Duration retention;
    private final Duration staleAfter;

    Retention(JobStore store, DataDirectory data, TransactionTemplate tx, StoreProperties properties) {
        this.store = store;
        this.data = data;
        this.tx = tx;
        this.retention = properties.retention();
        this.staleAfter = properties.staleTmpAfter();
    }

    /** One round of all three. */
    void run() {
        purge();
        failPastDeadline(Instant.now());
        sweepOrphanedInputs(Instant.now());
    }

    /** Purges one batch of expired jobs; returns how many. */
    int purge() {
        List<String> expired = store.finishedBefore(Instant.now().minus(retention), BATCH);
        for (String id : expired) {
            tx.executeWithoutResult(s -> store.delete(id));
            data.deleteJobInputs(id);
        }
        if (!expired.isEmpty()) {
            LOG.info("removed {} jobs finished more than {} ago", expired.size(), retention);
        }
        return expired.size();
    }

    /** Fails queued jobs whose deadline passed before {@code now}; returns how many. */
    int failPastDeadline(Instant now) {
        int failed = 0;
        for (JobRecord job : store.queuedPastDeadline(now, BATCH).stream().map(store::find)
                .flatMap(java.util.Optional::stream).toList()) {
            if (store.failQueued(job.id(), JobRunner.deadlinePassed(job.deadlineAt()))) {
                data.deleteJobInputs(job.id());
                failed++;
            }
        }
        if (failed > 0) {
            LOG.info("failed {} queued jobs whose deadline passed", failed);
        }
        return failed;
    }

    /** Removes input directories no job owns, untouched for the stale time before {@code now}; returns how many. */
    int sweepOrphanedInputs(Instant now) {
        List<String> old = data.jobDirectoriesUntouchedSince(now.minus(staleAfter));
        int removed = 0;
        for (int from = 0; from < old.size(); from += BATCH) {
            List<String> batch = old.subList(from, Math.min(old.size(), from + BATCH));
            java.util.Set<String> owned = store.existing(batch);
            for (String id : batch) {
                if (!owned.contains(id)) {
                    data.deleteJobInputs(id);
                    removed++;
                }
            }
        }
        if (removed > 0) {
            LOG.info("removed {} job input directories that no job owns", removed);
        }
        return removed;
    }
}
