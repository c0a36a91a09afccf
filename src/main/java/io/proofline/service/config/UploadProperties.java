package io.proofline.service.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code proofline.uploads.*}: how many request bodies (job submissions, circuit registrations, verifications) are
 * read at once. A body holds a worker thread while it arrives, so these bound the threads that slow senders can take
 * (the container has 200 by default, and the health probes need some): an upload beyond them is answered at once,
 * 429 when its key has {@code concurrentPerKey} in progress, 503 when the instance has {@code concurrent}. The size
 * limits are {@code proofline.store.max-job-size} and {@code max-circuit-size}, and for {@code /api/v1/verify} the
 * size the largest legitimate verification takes ({@code proofline.store.max-public-signals}); the time limit is
 * {@code proofline.store.body-read-timeout}.
 *
 * @param concurrent       request bodies read at once on this instance
 * @param concurrentPerKey request bodies one API key may send at once
 * @param idleTimeout      the longest a body may send nothing at all (a read that waits longer fails with 408);
 *                         a body that keeps trickling ends at {@code body-read-timeout}, at most this much later
 */
@ConfigurationProperties("proofline.uploads")
public record UploadProperties(@DefaultValue("32") int concurrent, @DefaultValue("8") int concurrentPerKey,
                               @DefaultValue("20s") Duration idleTimeout) {

    public UploadProperties {
        if (concurrent < 1 || concurrentPerKey < 1) {
            throw new IllegalArgumentException("proofline.uploads.concurrent and concurrent-per-key must be at least 1");
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("proofline.uploads.idle-timeout must be positive, not " + idleTimeout);
        }
    }
}
