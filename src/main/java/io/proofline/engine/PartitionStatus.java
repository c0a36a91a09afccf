package io.proofline.engine;

/**
 * One partition as a client sees it.
 *
 * @param index   its index in the job
 * @param stage   where it is now
 * @param device  the device that ran (or runs) its prove start; empty before
 * @param timings time per stage so far
 */
public record PartitionStatus(int index, Stage stage, String device, StageTimings timings) {
}
