package io.proofline.engine.pipeline;

import io.proofline.engine.Priority;

import java.util.Comparator;

/**
 * A partition's place in the dispatch order, given once when its job is admitted ({@link FairClock}) and kept for
 * good: a partition put back into the queue (its step overran) takes the same place, and an admission that waits for
 * memory never moves it. The order is the priority first (strictly: a higher class always goes first), then the
 * virtual start tag (fairness between tenants within the class), then arrival.
 *
 * @param priority the job's priority
 * @param startTag the virtual time at which the partition's turn starts (start-time fair queuing)
 * @param arrival  the admission order of partitions on this engine: a job's partitions in index order, jobs in the
 *                 order they arrived; breaks ties between equal tags
 */
record QueuePlace(Priority priority, double startTag, long arrival) implements Comparable<QueuePlace> {

    static final Comparator<QueuePlace> ORDER = Comparator.<QueuePlace>comparingInt(p -> -p.priority.ordinal())
            .thenComparingDouble(QueuePlace::startTag)
            .thenComparingLong(QueuePlace::arrival);

    @Override
    public int compareTo(QueuePlace other) {
        return ORDER.compare(this, other);
    }
}
