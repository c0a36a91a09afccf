package io.proofline.service;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code proofline.pipeline.*}: the engine's threads and queues, and how this instance takes jobs.
 *
 * @param synthesisWorkers  synthesis threads; 0 means half the processors
 * @param queueCapacity     partitions admitted (waiting, on all instances) before submission answers 429
 * @param handoffCapacity   synthesized partitions that may wait for a device
 * @param finalizerThreads  threads for prove finish and verification
 * @param jobThreads        jobs this instance takes from the durable queue at once
 * @param shutdownGrace     on SIGTERM, how long running partitions may take to finish
 * @param retryAfter        what a 429 answer suggests in {@code Retry-After}
 */
@ConfigurationProperties("proofline.pipeline")
record PipelineProperties(@DefaultValue("0") int synthesisWorkers, @DefaultValue("1024") int queueCapacity,
                          @DefaultValue("2") int handoffCapacity, @DefaultValue("2") int finalizerThreads,
                          @DefaultValue("8") int jobThreads, @DefaultValue("30s") Duration shutdownGrace,
                          @DefaultValue("5s") Duration retryAfter) {
}
