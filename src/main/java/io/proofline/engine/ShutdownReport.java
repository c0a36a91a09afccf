package io.proofline.engine;

import java.util.List;

/**
 * What {@link ProvingEngine#shutdown} left undone; the caller (which keeps jobs durably) may run them again.
 *
 * @param leftQueued      jobs with partitions that never left the queue; they end as CANCELLED
 * @param cancelledInFlight jobs whose running partitions did not finish within the grace period
 * @param clean           whether everything in flight finished in time
 */
public record ShutdownReport(List<JobId> leftQueued, List<JobId> cancelledInFlight, boolean clean) {

    public ShutdownReport {
        leftQueued = List.copyOf(leftQueued);
        cancelledInFlight = List.copyOf(cancelledInFlight);
    }
}
