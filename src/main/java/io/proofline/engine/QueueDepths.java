package io.proofline.engine;

/**
 * How many partitions are in each active stage, and the limits of the two queues.
 *
 * @param queued          admitted and not yet synthesizing (in the priority queue, or dispatched to a
 *                        synthesis worker that has not started)
 * @param queueCapacity   how many partitions the queue admits
 * @param synthesizing    being synthesized
 * @param awaitingDevice     synthesized and waiting in the hand-off (or for a device)
 * @param handoffCapacity the hand-off's bound; {@code -1} when unbounded (the lab's baseline admission)
 * @param proving         in prove start on a device
 * @param finalizing      in prove finish or verification
 */
public record QueueDepths(int queued, int queueCapacity, int synthesizing, int awaitingDevice, int handoffCapacity,
                          int proving, int finalizing) {

    public static final QueueDepths NONE = new QueueDepths(0, 0, 0, 0, 0, 0, 0);
}
