package io.proofline.service.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code proofline.store.*}: where circuits, job inputs and the embedded database live, and how long results stay.
 * Instances sharing one PostgreSQL must share the data directory too (a ReadWriteMany volume): the database holds
 * the jobs, the directory the zkeys and partition inputs they refer to.
 *
 * @param dataDir           the data directory ({@code PROOFLINE_DATA_DIR}, default {@code ./data})
 * @param retention         finished jobs and their proofs are removed this long after they finished
 * @param maxCircuitSize    the largest zkey (and wasm, r1cs) upload
 * @param maxJobSize        the largest job submission (JSON body or multipart request)
 * @param heartbeatInterval how often an instance renews the lease on the jobs it runs
 * @param missedHeartbeats  heartbeats missed before another instance takes a job over (at least 4)
 * @param pollingInterval   how often an instance looks for queued jobs
 * @param instanceName      this instance's name in the lease table; empty means host name and process id
 * @param maxAttempts       runs of a job whose instance died while running it before the job is FAILED (poison)
 * @param bodyReadTimeout   how long a JSON request body may take to arrive (408 past it): a slow sender may not
 *                          hold a worker thread
 * @param maxPublicSignals  the most public signals a circuit may have (422 at registration beyond): its proofs'
 *                          public signals are stored as one JSON text, and the proofs table holds at most
 *                          {@link io.proofline.service.jobs.JobStore#PUBLIC_SIGNALS_CHARS} characters of it (some 12,000 signals); a
 *                          circuit past either bound is refused however this is set
 * @param staleTmpAfter     an entry of another instance in {@code data/tmp} (a registration or job upload being
 *                          staged) untouched this long is taken for a crash's leftover and removed at start; it
 *                          must be longer than any upload takes to arrive and be validated
 */
@ConfigurationProperties("proofline.store")
public record StoreProperties(@DefaultValue("./data") Path dataDir, @DefaultValue("7d") Duration retention,
                       @DefaultValue("2GB") DataSize maxCircuitSize, @DefaultValue("256MB") DataSize maxJobSize,
                       @DefaultValue("5s") Duration heartbeatInterval, @DefaultValue("6") int missedHeartbeats,
                       @DefaultValue("1s") Duration pollingInterval, String instanceName,
                       @DefaultValue("3") int maxAttempts, @DefaultValue("2m") Duration bodyReadTimeout,
                       @DefaultValue("10000") int maxPublicSignals,
                       @DefaultValue("1h") Duration staleTmpAfter) {

    public StoreProperties {
        if (staleTmpAfter != null && (staleTmpAfter.isNegative() || staleTmpAfter.isZero())) {
            throw new IllegalArgumentException("proofline.store.stale-tmp-after must be positive, not "
                    + staleTmpAfter + ": another instance's upload in progress would be removed");
        }
    }
}
