package io.proofline.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.proofline.engine.EngineFixture.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Congestion is never failure (issue #33): with a budget that fits one partition and a prover slower than three
 * admission waits, five jobs of mixed priorities all end DONE, one after the other in priority and arrival order;
 * the head of the queue waits its admission wait out again and again, keeping its place, and nothing is charged to
 * its job.
 */
class CongestionTest {

    private static final Duration ADMISSION_WAIT = Duration.ofMillis(100);
    private static final int OVERRUNS_PER_PROOF = 3;

    private EngineFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aBudgetForOnePartitionAndASlowProverFinishEveryJobInPriorityAndArrivalOrder() throws Exception {
        fixture = new EngineFixture(1, b -> b.admissionWait(ADMISSION_WAIT).synthesisWorkers(1), "cpu");
        EngineFixture f = fixture;
        List<JobId> finished = new CopyOnWriteArrayList<>();
        // Each prove start outlasts three admission waits of the head behind it: it returns once the dispatcher
        // has counted three more overruns (never sooner, whatever the machine's speed), or at once when no partition
        // waits. The first one waits until all five jobs are in.
        Gate allSubmitted = Gate.interruptible();
        f.prover.onProveStart = (work, device) -> {
            if (f.engine.status(work.job()).priority() == Priority.LOW && finished.isEmpty()) {
                allSubmitted.pass();
            }
            long seen = f.engine.dispatcherHealth().admissionOverruns();
            while (f.engine.dispatcherHealth().admissionOverruns() < seen + OVERRUNS_PER_PROOF
                    && f.engine.snapshot().queues().queued() > 0) {
                Thread.sleep(5);
            }
        };
        JobId first = submit(f, Priority.LOW, finished);
        allSubmitted.awaitArrivals(1);
        JobId low = submit(f, Priority.LOW, finished);
        JobId high = submit(f, Priority.HIGH, finished);
        JobId normal = submit(f, Priority.NORMAL, finished);
        JobId secondHigh = submit(f, Priority.HIGH, finished);
        allSubmitted.open();

        for (JobId id : List.of(first, low, high, normal, secondHigh)) {
            JobResult result = f.engine.await(id, Duration.ofMinutes(1));
            assertEquals(JobState.DONE, result.state(), () -> id + ": " + result.failure());
        }
        assertEquals(List.of(first, high, secondHigh, normal, low), new ArrayList<>(finished),
                "the order of completion: the running job, then by priority and arrival");
        assertTrue(f.engine.dispatcherHealth().admissionOverruns() >= 4L * OVERRUNS_PER_PROOF,
                () -> "the heads waited past the admission wait: " + f.engine.dispatcherHealth());
        assertTrue(f.engine.dispatcherHealth().healthy(), "waiting for memory is no stall");
        f.assertAllReleased();
    }

    private static JobId submit(EngineFixture f, Priority priority, List<JobId> finished) {
        JobId id = f.engine.submit(EngineFixture.job(1, priority));
        f.engine.result(id).thenRun(() -> finished.add(id));
        return id;
    }
}
