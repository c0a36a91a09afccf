package io.proofline.engine.pipeline;

import io.proofline.engine.Priority;
import io.proofline.engine.TenantShare;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * Start-time fair queuing (Goyal, Vin and Cheng, 1996) between tenants, one virtual clock per priority class. Each
 * partition costs one unit of work: a tenant of weight {@code w} advances its own finish tag by {@code 1/w} per
 * partition, and a partition's start tag is the later of the class's virtual time and its tenant's last finish tag.
 * The virtual time is the start tag of the latest partition dispatched, so a tenant that was idle starts at the
 * present (it saved no credit), while one with a backlog has its later partitions tagged far ahead: a new tenant's
 * first partition goes before them. Over any interval in which two tenants both have partitions waiting, the
 * partitions they get dispatched, divided by their weights, differ by at most {@code 1/w1 + 1/w2}.
 *
 * <p>Not thread-safe: the {@link WorkQueue} calls it under its lock.
 */
final class FairClock {

    private final Map<Priority, Double> virtualTime = new EnumMap<>(Priority.class);
    private final Map<Priority, Map<String, Double>> lastFinish = new EnumMap<>(Priority.class);
    private long arrivals;

    /** The place of a partition arriving now: its start tag, and its tenant's finish tag advanced past it. */
    QueuePlace place(Priority priority, TenantShare share) {
        double now = virtualTime.getOrDefault(priority, 0.0);
        Map<String, Double> finishes = lastFinish.computeIfAbsent(priority, p -> new HashMap<>());
        double start = Math.max(now, finishes.getOrDefault(share.tenant(), 0.0));
        finishes.put(share.tenant(), start + 1 / share.weight());
        return new QueuePlace(priority, start, ++arrivals);
    }

    /**
     * A partition left the queue for work: the class's virtual time moves to its start tag (never back: a partition
     * put back and dispatched again does not rewind it). Tenants whose finish tags the virtual time has passed are
     * forgotten; they would start at the virtual time anyway.
     */
    void dispatched(QueuePlace place) {
        double now = Math.max(virtualTime.getOrDefault(place.priority(), 0.0), place.startTag());
        virtualTime.put(place.priority(), now);
        Map<String, Double> finishes = lastFinish.get(place.priority());
        if (finishes != null) {
            finishes.values().removeIf(finish -> finish <= now);
        }
    }

    /** The virtual time of a class (for the console and tests). */
    double virtualTime(Priority priority) {
        return virtualTime.getOrDefault(priority, 0.0);
    }
}
