package io.proofline.web.console;

/**
 * One tenant (API key) on the console's Tenants page: its limits beside its usage. Counts of the database are of all
 * instances; {@code queued} and {@code inFlight} are this instance's engine. A limit of 0 is none.
 *
 * @param tenant           the key's name ({@code key-…}), or {@code (console)} for the admin's jobs
 * @param weight           its share of dispatch at a priority
 * @param priorities       the priorities it may use
 * @param unproved         its partitions not yet proved (all instances), against {@code queueShare}
 * @param queueShare       the partitions its queue share allows
 * @param queued           its partitions in this instance's engine queue
 * @param inFlight         its partitions past that queue and not finished, on this instance
 * @param jobsInFlight     its jobs queued or running (all instances)
 * @param maxJobsInFlight  their limit
 * @param storedBytes      its zkeys and unfinished jobs' inputs
 * @param maxStoredBytes   their limit
 * @param circuits         circuits it holds
 * @param maxCircuits      their limit
 * @param registrations    its registrations being checked
 * @param maxRegistrations their limit
 */
public record TenantRow(String tenant, double weight, String priorities, long unproved, int queueShare, int queued,
                        int inFlight, long jobsInFlight, int maxJobsInFlight, long storedBytes, long maxStoredBytes,
                        long circuits, int maxCircuits, long registrations, int maxRegistrations) {
}
