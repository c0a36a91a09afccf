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
 * @param jobThreads        jobs this instance takes from the durable queue at once, each run on a virtual thread
 *                          that mostly waits: by default as many as the queue holds partitions, so that every job
 *                          taken is in the engine's queue, where priority and fairness between tenants order it (a
 *                          new job never waits for a thread behind older ones). With several instances, a lower value
 *                          leaves more of a backlog to the others
 * @param shutdownGrace     on SIGTERM, how long running partitions may take to finish
 * @param retryAfter        what a 429 answer suggests in {@code Retry-After}
 * @param stepTimeout       how long one prove start or prove finish may run on a device before the device is taken
 *                          for hung and the partition is proved on another device (or the CPU), where one can take it
 * @param maxDeadline       the longest deadline a client may give a job ({@code deadlineSeconds}; 422 beyond)
 */
@ConfigurationProperties("proofline.pipeline")
public record PipelineProperties(@DefaultValue("0") int synthesisWorkers,
                                 @DefaultValue("" + EngineConfig.DEFAULT_QUEUE_CAPACITY) int queueCapacity,
                                 @DefaultValue("" + EngineConfig.DEFAULT_HANDOFF_CAPACITY) int handoffCapacity,
                                 @DefaultValue("" + EngineConfig.DEFAULT_FINALIZER_THREADS) int finalizerThreads,
                                 @DefaultValue("" + EngineConfig.DEFAULT_QUEUE_CAPACITY) int jobThreads, @DefaultValue("30s") Duration shutdownGrace,
                                 @DefaultValue(EngineConfig.DEFAULT_QUEUE_FULL_RETRY_AFTER_SECONDS + "s")
                                 Duration retryAfter,
                                 @DefaultValue(EngineConfig.DEFAULT_STEP_TIMEOUT_MINUTES + "m") Duration stepTimeout,
                                 @DefaultValue("7d") Duration maxDeadline) {
}
