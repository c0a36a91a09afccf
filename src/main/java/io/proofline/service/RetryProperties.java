package io.proofline.service;

import io.proofline.engine.EngineConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code proofline.retry.*}: how transient failures are treated.
 *
 * @param admissionWait how long the partition at the head of the engine's queue may wait for memory before its job
 *                      ends with a retryable failure
 */
@ConfigurationProperties("proofline.retry")
public record RetryProperties(
        @DefaultValue(EngineConfig.DEFAULT_ADMISSION_WAIT_MINUTES + "m") Duration admissionWait) {
}
