package io.proofline.engine.internal;

import io.proofline.engine.KeyEvictor;
import io.proofline.engine.MemoryBudget;
import io.proofline.engine.PipelinePolicy;
import io.proofline.engine.Reservation;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * The single thread that takes work in priority order. For the partition at the head of the queue it takes a
 * synthesis slot and (BUDGETED) the partition's whole reservation, evicting idle cached keys before it
 * blocks; only then does the partition leave the queue. While it waits it re-checks the head, so a
 * higher-priority job that arrives meanwhile goes first.
 */
final class Dispatcher<S, P> implements Runnable {

    /** How often a wait for memory re-checks whether the head of the queue changed (cancelled, overtaken). */
    static final Duration HEAD_RECHECK = Duration.ofMillis(20);

    private final WorkQueue<PartitionRun<S, P>> queue;
    private final MemoryBudget budget;
    private final KeyEvictor evictor;
    private final PipelinePolicy policy;
    private final Semaphore synthesisSlots;
    private final SynthesisStage<S, P> synthesis;
    private volatile boolean stopped;

    Dispatcher(WorkQueue<PartitionRun<S, P>> queue, MemoryBudget budget, KeyEvictor evictor, PipelinePolicy policy,
               Semaphore synthesisSlots, SynthesisStage<S, P> synthesis) {
        this.queue = queue;
        this.budget = budget;
        this.evictor = evictor;
        this.policy = policy;
        this.synthesisSlots = synthesisSlots;
        this.synthesis = synthesis;
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                dispatchNext();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops taking work; the thread must also be interrupted to leave a wait. */
    void stop() {
        stopped = true;
    }

    private void dispatchNext() throws InterruptedException {
        PartitionRun<S, P> head = queue.awaitHead();
        synthesisSlots.acquire();
        boolean slotPassedOn = false;
        try {
            Reservation reservation = reserve(head);
            if (reservation == null) {
                return;
            }
            if (stopped || !queue.removeIfHead(head)) {
                reservation.close();
                return;
            }
            head.attach(reservation);
            slotPassedOn = synthesis.start(head);
        } finally {
            if (!slotPassedOn) {
                synthesisSlots.release();
            }
        }
    }

    /** The head's reservation, or null when the head changed while waiting. */
    private Reservation reserve(PartitionRun<S, P> head) throws InterruptedException {
        if (policy == PipelinePolicy.BASELINE) {
            return budget.tryAcquire(0).orElseThrow();
        }
        long bytes = head.footprint().total();
        while (!stopped) {
            Optional<Reservation> now = budget.tryAcquire(bytes);
            if (now.isPresent()) {
                return now.get();
            }
            evictor.evictIdle(bytes - budget.available());
            Optional<Reservation> waited = budget.acquire(bytes, HEAD_RECHECK);
            if (waited.isPresent()) {
                return waited.get();
            }
            if (queue.head() != head) {
                return null;
            }
        }
        return null;
    }
}
