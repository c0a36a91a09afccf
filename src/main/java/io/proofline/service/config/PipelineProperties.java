package io.proofline.service.config;

import io.proofline.engine.EngineConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code proofline.pipeline.*}: the engine's threads and queues, and how this instance takes jobs. Where the engine
 * has the same setting, its default is the engine's ({@link EngineConfig}), so that the CLI and the service agree.
 *
 * @param synthesisWorkers  synthesis threads; 0 means half the processors
 * @param queueCapacity     partitions admitted (waiting, on all instances) before submission answers 429
 * @param handoffCapacity   synthesized partitions that may wait for a device
 * @param finalizerThreads  threads for prove finish and verification
 * @param jobThreads        jobs this instance takes from the durable queue at once: one-partition jobs spend most of
 *                          their time outside a device (inputs read, synthesis, finish, rows), so a device stays
 *                          busy only with several times its prove-start workers in flight
 * @param shutdownGrace     on SIGTERM, how long running partitions may take to finish
 * @param retryAfter        what a 429 answer suggests in {@code Retry-After}
 */
@ConfigurationProperties("proofline.pipeline")
public record PipelineProperties(@DefaultValue("0") int synthesisWorkers,
                                 @DefaultValue("" + EngineConfig.DEFAULT_QUEUE_CAPACITY) int queueCapacity,
                                 @DefaultValue("" + EngineConfig.DEFAULT_HANDOFF_CAPACITY) int handoffCapacity,
                                 @DefaultValue("" + EngineConfig.DEFAULT_FINALIZER_THREADS) int finalizerThreads,
                                 @DefaultValue("16") int jobThreads, @DefaultValue("30s") Duration shutdownGrace,
                                 @DefaultValue(EngineConfig.DEFAULT_QUEUE_FULL_RETRY_AFTER_SECONDS + "s")
                                 Duration retryAfter) {
}
