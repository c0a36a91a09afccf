package io.proofline.engine;

/**
 * One tenant's work on this engine now.
 *
 * @param tenant   {@link TenantShare#tenant()}
 * @param jobs     its jobs not finished
 * @param queued   its partitions waiting in the queue
 * @param inFlight its partitions past the queue and not finished (synthesizing, awaiting a device, proving, finishing)
 */
public record TenantLoad(String tenant, int jobs, int queued, int inFlight) {
}
