package io.proofline.service.tenants;

/**
 * What one tenant uses now, as the database says (all instances).
 *
 * @param jobsInFlight       its jobs QUEUED or RUNNING
 * @param unprovedPartitions the partitions of those jobs not yet ended (what its queue share bounds)
 * @param storedBytes        its circuits' zkeys plus its unfinished jobs' inputs
 * @param circuits           circuits it holds (registered, or granted by registering a zkey registered before)
 * @param registrations      its circuits whose check is in progress (REGISTERING)
 */
public record TenantUsage(long jobsInFlight, long unprovedPartitions, long storedBytes, long circuits,
                          long registrations) {

    public static final TenantUsage NONE = new TenantUsage(0, 0, 0, 0, 0);
}
