package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.DeadlineExceededException;
import io.proofline.engine.JobFailure;
import io.proofline.engine.JobResult;
import io.proofline.engine.Stage;

import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How partitions and jobs end: every path (success, failure, cancellation, deadline, shutdown) goes through
 * {@link #finish}, which frees the partition's buffers and returns its reservation exactly once.
 */
final class Lifecycle<S, P> {

    private final WorkQueue<PartitionRun<S, P>> queue;
    private final Handoff<PartitionRun<S, P>> handoff;
    private final BufferTracker tracker;
    private final Consumer<JobRun<S, P>> onJobFinished;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition partitionFinished = lock.newCondition();

    Lifecycle(WorkQueue<PartitionRun<S, P>> queue, Handoff<PartitionRun<S, P>> handoff, BufferTracker tracker,
              Consumer<JobRun<S, P>> onJobFinished) {
        this.queue = queue;
        this.handoff = handoff;
        this.tracker = tracker;
        this.onJobFinished = onJobFinished;
    }

    /** Ends {@code partition} because {@code cause} was thrown: CANCELLED if it was being cancelled, else FAILED. */
    void fail(PartitionRun<S, P> partition, Throwable cause) {
        finish(partition, partition.cancelRequested() ? Stage.CANCELLED : Stage.FAILED, cause);
    }

    /** Ends {@code partition} in {@code terminal}; only the first call for a partition has an effect. */
    void finish(PartitionRun<S, P> partition, Stage terminal, Throwable cause) {
        if (!partition.claimFinish()) {
            return;
        }
        Stage lastStage = partition.stage();
        partition.releaseAll();
        partition.moveTo(terminal);
        tracker.event(partition + " " + terminal);
        JobRun<S, P> job = partition.job();
        if (terminal == Stage.FAILED) {
            failJob(job, new JobFailure(partition.index(), lastStage, cause));
        }
        if (job.partitionFinished()) {
            JobResult result = job.complete();
            onJobFinished.accept(job);
            tracker.event("job " + job.id() + " " + result.state());
        }
        signalFinished();
    }

    /** Asks {@code partition} to stop; frees it at once when it is at rest in a queue. */
    void cancel(PartitionRun<S, P> partition) {
        partition.requestCancel();
        if (queue.remove(partition) || handoff.remove(partition)) {
            finish(partition, Stage.CANCELLED, null);
        }
    }

    void cancelJob(JobRun<S, P> job) {
        job.partitions().forEach(this::cancel);
    }

    /** Records the job's first failure and skips its remaining partitions. */
    void failJob(JobRun<S, P> job, JobFailure failure) {
        if (job.fail(failure)) {
            job.partitions().stream().filter(p -> !p.isFinished()).forEach(this::cancel);
        }
    }

    /** The job's deadline passed. */
    void expire(JobRun<S, P> job, Duration deadline) {
        if (job.isFinished()) {
            return;
        }
        Stage furthest = job.partitions().stream().map(PartitionRun::stage).filter(s -> !s.isTerminal())
                .max(Comparator.naturalOrder()).orElse(Stage.QUEUED);
        failJob(job, new JobFailure(JobFailure.WHOLE_JOB, furthest, new DeadlineExceededException(job.id(), deadline)));
    }

    /** Waits until {@code done} holds (re-checked whenever a partition finishes) or the deadline passes. */
    boolean awaitUntil(BooleanSupplier done, long deadlineNanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (!done.getAsBoolean()) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                partitionFinished.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void signalFinished() {
        lock.lock();
        try {
            partitionFinished.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
