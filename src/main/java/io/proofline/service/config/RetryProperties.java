package io.proofline.service.config;

import io.proofline.engine.EngineConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code proofline.retry.*}: how transient failures are treated. A job that fails for a reason that may pass (an
 * I/O error reading its circuit's key, a wait for memory past {@code admissionWait}) goes back to the durable queue
 * and runs again after a backoff, up to {@code attempts} times, instead of failing at once.
 *
 * @param admissionWait how long the partition at the head of the engine's queue may wait for memory (or a partition
 *                      for room on a device) before its job ends transiently (and goes back to the durable queue)
 * @param attempts      runs of a job that end transiently before it is failed with the last reason
 * @param backoff       the wait before the first rerun; doubled for each further one
 */
@ConfigurationProperties("proofline.retry")
public record RetryProperties(
        @DefaultValue(EngineConfig.DEFAULT_ADMISSION_WAIT_MINUTES + "m") Duration admissionWait,
        @DefaultValue("3") int attempts, @DefaultValue("10s") Duration backoff) {
}
