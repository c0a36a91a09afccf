package io.proofline.engine;

/**
 * What {@link PartitionProver#synthesize} gets for one partition.
 *
 * @param job       the job it belongs to
 * @param partition its index in the job, from 0
 * @param circuit   the circuit of the job
 * @param input     the partition's upload
 */
public record PartitionWork(JobId job, int partition, CircuitRef circuit, PartitionInput input) {
}
