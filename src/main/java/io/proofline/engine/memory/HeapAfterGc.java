package io.proofline.engine.memory;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The JVM heap in use right after the last garbage collection: what the heap really holds (live objects and what
 * the collector kept), the figure to hold against the max heap — heap used between collections also counts garbage
 * not yet collected and says little. Read from the collectors' notifications (the heap pools' usage after each
 * collection, summed); before the first collection, from the pools' collection usage. One per JVM.
 */
public final class HeapAfterGc {

    private static final HeapAfterGc INSTANCE = new HeapAfterGc();

    private final Set<String> heapPools;
    private final AtomicLong afterLastGc = new AtomicLong(-1);
    private final AtomicLong collections = new AtomicLong();
    private final Map<String, Long> perPool = new java.util.HashMap<>();

    private HeapAfterGc() {
        heapPools = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName).collect(Collectors.toUnmodifiableSet());
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((notification, handback) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
                            .equals(notification.getType())) {
                        record(GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()));
                    }
                }, null, null);
            }
        }
    }

    /** This JVM's figure (listening from the first call on). */
    public static HeapAfterGc get() {
        return INSTANCE;
    }

    /** Heap used after the last collection, in bytes. */
    public long bytes() {
        long last = afterLastGc.get();
        if (last >= 0) {
            return last;
        }
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            MemoryUsage after = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
            sum += after == null ? 0 : after.getUsed();
        }
        return sum;
    }

    /** The JVM's max heap ({@code -Xmx}). */
    public long maxBytes() {
        return Runtime.getRuntime().maxMemory();
    }

    /** Collections seen since the listener was installed. */
    public long collections() {
        return collections.get();
    }

    /**
     * Each heap pool's usage after the last collection that reported it: a collector may report only some pools (a
     * concurrent cycle's pauses), and the others keep what their last collection left.
     */
    private synchronized void record(GarbageCollectionNotificationInfo info) {
        for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                perPool.put(pool.getKey(), pool.getValue().getUsed());
            }
        }
        long sum = 0;
        for (long used : perPool.values()) {
            sum += used;
        }
        afterLastGc.set(sum);
        collections.incrementAndGet();
    }
}
