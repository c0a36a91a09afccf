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
 * Removes finished jobs, their proofs and inputs {@code proofline.store.retention} after they finished. Runs as a
 * recurring task of the job scheduler, so one instance at a time does it.
 */
@Component
class Retention {

    private static final Logger LOG = LoggerFactory.getLogger(Retention.class);
    private static final int BATCH = 500;

    private final JobStore store;
    private final DataDirectory data;
    private final TransactionTemplate tx;
    private final Duration retention;

    Retention(JobStore store, DataDirectory data, TransactionTemplate tx, StoreProperties properties) {
        this.store = store;
        this.data = data;
        this.tx = tx;
        this.retention = properties.retention();
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
}
