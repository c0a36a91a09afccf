package io.proofline.engine.pipeline;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The devices that refused one partition for capacity ({@link io.proofline.snark.prover.DeviceCapacityException}) and
 * since when the partition waits for room. A device that may fit later is tried again once a lease closed anywhere
 * in the pool since it refused (memory was freed) or {@link #RECHECK_NANOS} passed (memory freed elsewhere); one
 * that never fits is left out for good. Only the partition's owner uses it; synchronized for the snapshot readers.
 */
final class RoomRefusals {

    /** How long a device that refused for room is left alone when nothing closed in the pool meanwhile. */
    static final long RECHECK_NANOS = 1_000_000_000L;

    private record Refusal(long poolCompletions, long atNanos) {
    }

    private final Map<String, Refusal> mayFitLater = new HashMap<>();
    private final Set<String> neverFits = new HashSet<>();
    private long waitingSinceNanos = -1;
    private Throwable last;

    synchronized void refused(String deviceId, boolean everFits, long poolCompletions, Throwable why) {
        last = why;
        if (everFits) {
            mayFitLater.put(deviceId, new Refusal(poolCompletions, System.nanoTime()));
            if (waitingSinceNanos < 0) {
                waitingSinceNanos = System.nanoTime();
            }
        } else {
            mayFitLater.remove(deviceId);
            neverFits.add(deviceId);
        }
    }

    synchronized boolean neverFits(String deviceId) {
        return neverFits.contains(deviceId);
    }

    /** Whether {@code deviceId} refused for room and nothing suggests it has room now. */
    synchronized boolean stillFull(String deviceId, long poolCompletions, long nowNanos) {
        Refusal r = mayFitLater.get(deviceId);
        if (r == null) {
            return false;
        }
        if (poolCompletions > r.poolCompletions || nowNanos - r.atNanos >= RECHECK_NANOS) {
            mayFitLater.remove(deviceId);
            return false;
        }
        return true;
    }

    /** Nanoseconds since the first refusal by a device that may fit later; 0 when there was none. */
    synchronized long waitedNanos(long nowNanos) {
        return waitingSinceNanos < 0 ? 0 : nowNanos - waitingSinceNanos;
    }

    synchronized boolean any() {
        return last != null;
    }

    synchronized Throwable last() {
        return last;
    }
}
