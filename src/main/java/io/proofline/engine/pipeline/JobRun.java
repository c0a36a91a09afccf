package io.proofline.engine.pipeline;

import io.proofline.engine.CircuitRef;
import io.proofline.engine.JobFailure;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.JobStatus;
import io.proofline.engine.PartitionStatus;
import io.proofline.engine.Priority;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.Stage;
import io.proofline.engine.StageTimings;
import io.proofline.engine.TenantShare;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** One job: its partitions, its first failure, and the future its callers wait on. */
final class JobRun<S, P> {

    private final JobId id;
    private final JobRequest request;
    private final long submittedNanos;
    private final boolean verify;
    private final List<PartitionRun<S, P>> partitions = new ArrayList<>();
    private final AtomicInteger unfinished;
    private final AtomicReference<JobFailure> failure = new AtomicReference<>();
    private final CompletableFuture<JobResult> result = new CompletableFuture<>();
    private volatile Future<?> deadlineTimer;
    /** Guards {@link #starting()}: the first partition runs the request's start hook, the others wait for it. */
    private final Object start = new Object();
    private boolean started;
    private volatile long finishedNanos = -1;

    JobRun(JobId id, JobRequest request, long submittedNanos, boolean verify) {
        this.id = id;
        this.request = request;
        this.submittedNanos = submittedNanos;
        this.verify = verify;
        this.unfinished = new AtomicInteger(request.partitions().size());
    }

    /** Called once, right after construction, before the job is visible to any other thread. */
    void addPartition(PartitionRun<S, P> partition) {
        partitions.add(partition);
    }

    JobId id() {
        return id;
    }

    CircuitRef circuit() {
        return request.circuit();
    }

    Priority priority() {
        return request.priority();
    }

    TenantShare share() {
        return request.share();
    }

    boolean verify() {
        return verify;
    }

    Optional<Duration> deadline() {
        return request.deadline();
    }

    List<PartitionRun<S, P>> partitions() {
        return partitions;
    }

    CompletableFuture<JobResult> result() {
        return result;
    }

    void deadlineTimer(Future<?> timer) {
        deadlineTimer = timer;
    }

    /**
     * A partition of the job is about to be synthesized: the first one runs the request's start hook (a failing hook
     * is logged, not fatal); any other waits until it has run.
     */
    void starting() {
        synchronized (start) {
            if (started) {
                return;
            }
            started = true;
            try {
                request.onStart().run();
            } catch (RuntimeException e) {
                System.getLogger(JobRun.class.getName()).log(System.Logger.Level.WARNING,
                        "job " + id + ": its start hook failed: " + e);
            }
        }
    }

    /** Records the job's failure; true only for the first one. */
    boolean fail(JobFailure why) {
        return failure.compareAndSet(null, why);
    }

    /** A partition finished; true for the call that finished the last one. */
    boolean partitionFinished() {
        return unfinished.decrementAndGet() == 0;
    }

    boolean isFinished() {
        return result.isDone();
    }

    boolean hasQueuedPartition() {
        return partitions.stream().anyMatch(p -> p.stage() == Stage.QUEUED);
    }

    /** Completes the job's future from its partitions' final stages. */
    JobResult complete() {
        finishedNanos = System.nanoTime();
        Future<?> timer = deadlineTimer;
        if (timer != null) {
            timer.cancel(false);
        }
        JobState state = finalState();
        List<ProofOutput> proofs = state == JobState.DONE
                ? partitions.stream().map(PartitionRun::output).toList() : List.of();
        JobResult done = new JobResult(id, state, proofs, Optional.ofNullable(failure.get()), timings());
        result.complete(done);
        return done;
    }

    JobStatus status() {
        List<PartitionStatus> parts = partitions.stream().map(PartitionRun::status).toList();
        return new JobStatus(id, request.circuit().id(), state(parts), request.priority(), parts,
                timings(parts), Optional.ofNullable(failure.get()));
    }

    private JobState finalState() {
        if (failure.get() != null) {
            return JobState.FAILED;
        }
        boolean allDone = partitions.stream().allMatch(p -> p.stage() == Stage.DONE);
        return allDone ? JobState.DONE : JobState.CANCELLED;
    }

    private JobState state(List<PartitionStatus> parts) {
        if (result.isDone()) {
            return result.join().state();
        }
        return parts.stream().allMatch(p -> p.stage() == Stage.QUEUED) ? JobState.QUEUED : JobState.RUNNING;
    }

    private StageTimings timings() {
        return timings(partitions.stream().map(PartitionRun::status).toList());
    }

    private StageTimings timings(List<PartitionStatus> parts) {
        StageTimings sum = StageTimings.ZERO;
        for (PartitionStatus p : parts) {
            sum = sum.plusStages(p.timings());
        }
        long end = finishedNanos >= 0 ? finishedNanos : System.nanoTime();
        return sum.withTotal(Duration.ofNanos(end - submittedNanos));
    }

    @Override
    public String toString() {
        return id.toString();
    }
}
