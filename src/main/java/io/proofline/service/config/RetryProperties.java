package io.proofline.service.config;

import io.proofline.engine.EngineConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code proofline.retry.*}: how waits and transient failures are treated. None of them fails a job (docs/API.md,
 * "Delivery"): a job whose run ends for a reason that may pass (an I/O error reading its circuit's key or its inputs,
 * every device's breaker open, an error of the service) goes back to the durable queue and runs again after a backoff,
 * however often, until it is done or its client's deadline passes.
 *
 * @param admissionWait how long the partition at the head of the engine's queue waits for memory before the wait is
 *                      counted as an overrun (a metric); it keeps its place and waits on
 * @param backoff       the wait before the first rerun after a transient failure; doubled for each further one
 * @param maxBackoff    the longest wait between reruns
 */
@ConfigurationProperties("proofline.retry")
public record RetryProperties(
        @DefaultValue(EngineConfig.DEFAULT_ADMISSION_WAIT_MINUTES + "m") Duration admissionWait,
        @DefaultValue("10s") Duration backoff, @DefaultValue("5m") Duration maxBackoff) {
}
