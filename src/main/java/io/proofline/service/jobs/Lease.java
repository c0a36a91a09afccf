package io.proofline.service.jobs;

/**
 * This instance's claim on a job from {@link JobStore#markRunning}: every later write of the run presents the
 * token, and is refused once another instance has taken the job over (fencing).
 *
 * @param jobId    the job
 * @param token    the run's token, unique per claim
 * @param attempts runs started and not handed back by their instance, this one included
 * @param retries  earlier runs that ended with a transient failure
 */
public record Lease(String jobId, String token, int attempts, int retries) {
}
