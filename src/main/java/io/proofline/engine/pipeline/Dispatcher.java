package io.proofline.engine.pipeline;

import io.proofline.algebra.poly.TwiddleCache;
import io.proofline.engine.AdmissionTimeoutException;
import io.proofline.engine.JobFailure;
import io.proofline.engine.memory.AdmissionPolicy;
import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.Stage;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * The single thread that takes work in priority order. For the partition at the head of the queue it takes a
 * synthesis slot and, in one step, the partition's reservation ({@link AdmissionPolicy#admittedBytes}) plus its
 * circuit's key if that is not resident ({@link KeyResidency}); when they do not fit it evicts the CPU prover's
 * twiddle tables in no use ({@link TwiddleCache}), then unused keys, lowest priority first, only as many bytes as the
 * head lacks, then waits for memory to come back. Only then does the
 * partition leave the queue. While it waits it re-checks the head, so a higher-priority job that arrives meanwhile
 * goes first; a head that waits longer than {@code admissionWait} ends its job with an
 * {@link AdmissionTimeoutException} (the service runs it again later) so that the queue behind it moves.
 *
 * <p>Why this cannot deadlock: a key is held only by admitted partitions, which make progress and give their
 * memory back, and every key in no use can be evicted; the submit check guarantees a partition and its key fit
 * the whole budget together. Twiddle tables are never waited for: a transform that gets none computes its
 * twiddles as it goes.
 */
final class Dispatcher<S, P> {

    /** How often a wait for memory re-checks whether the head of the queue changed (cancelled, overtaken). */
    static final Duration HEAD_RECHECK = Duration.ofMillis(20);

    private final WorkQueue<PartitionRun<S, P>> queue;
    private final MemoryBudget budget;
    private final KeyResidency keys;
    private final TwiddleCache twiddles;
    private final AdmissionPolicy admission;
    private final Duration admissionWait;
    private final Semaphore synthesisSlots;
    private final SynthesisWorkers<S, P> synthesis;
    private final Lifecycle<S, P> lifecycle;
    private volatile boolean stopped;

    Dispatcher(WorkQueue<PartitionRun<S, P>> queue, MemoryBudget budget, KeyResidency keys, TwiddleCache twiddles,
               AdmissionPolicy admission,
               Duration admissionWait, Semaphore synthesisSlots, SynthesisWorkers<S, P> synthesis,
               Lifecycle<S, P> lifecycle) {
        this.queue = queue;
        this.budget = budget;
        this.keys = keys;
        this.twiddles = twiddles;
        this.admission = admission;
        this.admissionWait = admissionWait;
        this.synthesisSlots = synthesisSlots;
        this.synthesis = synthesis;
        this.lifecycle = lifecycle;
    }

    /** Dispatches until stopped or interrupted; anything else thrown ends the thread (its supervisor restarts it). */
    void run() {
        while (!stopped) {
            try {
                dispatchNext();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    boolean isStopped() {
        return stopped;
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
            KeyAdmission admission = admit(head);
            if (admission == null) {
                return;
            }
            if (stopped || !queue.removeIfHead(head)) {
                admission.partition().close();
                admission.releaseKey().run();
                return;
            }
            head.attach(admission);
            slotPassedOn = synthesis.start(head);
        } finally {
            if (!slotPassedOn) {
                synthesisSlots.release();
            }
        }
    }

    /** The head's admission, or null when the head changed (or its job ended) while waiting. */
    private KeyAdmission admit(PartitionRun<S, P> head) throws InterruptedException {
        long bytes = admission.admittedBytes(head.footprint());
        String circuit = head.job().circuit().id();
        long deadline = System.nanoTime() + admissionWait.toNanos();
        while (!stopped) {
            long seen = budget.releases();
            Optional<KeyAdmission> now;
            try {
                now = keys.tryAdmit(circuit, bytes, budget);
            } catch (RuntimeException e) {
                // the head's own key cannot be admitted (its file is gone, say): its job fails, the queue moves on
                lifecycle.failJob(head.job(), new JobFailure(head.index(), Stage.QUEUED, e));
                return null;
            }
            if (now.isPresent()) {
                return now.get();
            }
            long lacking = bytes + keys.missingBytes(circuit) - budget.available();
            // twiddle tables first (a transform without one only computes its twiddles), then unused keys
            if (lacking > 0 && (twiddles.evictUnused(lacking) > 0 || keys.evictUnused(lacking, queuedCircuits()) > 0)) {
                continue;
            }
            budget.awaitRelease(seen, HEAD_RECHECK);
            if (queue.head() != head) {
                return null;
            }
            if (System.nanoTime() - deadline > 0) {
                lifecycle.failJob(head.job(), new JobFailure(JobFailure.WHOLE_JOB, Stage.QUEUED,
                        new AdmissionTimeoutException(head.job().id(), bytes, admissionWait)));
                return null;
            }
        }
        return null;
    }

    /** The circuits of the queued partitions in dispatch order, head first. */
    private List<String> queuedCircuits() {
        return queue.items().stream().sorted(PartitionRun.ORDER).map(p -> p.job().circuit().id()).distinct()
                .toList();
    }
}
