/**
 * Jobs: intake (staging a submission's partitions into files), the durable store and its leases, the runner that
 * hands stored jobs to the engine and writes their results, waits for a job's end, and retention.
 */
package io.proofline.service.jobs;
