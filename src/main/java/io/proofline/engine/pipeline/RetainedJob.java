package io.proofline.engine.pipeline;

import io.proofline.engine.JobFailure;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.JobStatus;
import io.proofline.engine.ProofOutput;

import java.util.List;
import java.util.Optional;

/**
 * What the engine keeps of a finished job for status queries: its status and result with the failure reduced to a
 * bounded {@link io.proofline.engine.RetainedFailure} (or a bare retryable one), and its proofs unless they were left
 * out to fit the cap (the service has them in its store). Nothing of the request (its inputs) or of the run
 * (buffers, partitions' objects) stays reachable.
 *
 * @param proofsKept whether {@code result} holds the proofs of a DONE job
 */
record RetainedJob(JobStatus status, JobResult result, boolean proofsKept) {

    /** Object headers, ids, the state and timings of the job: a fixed allowance per job. */
    static final long JOB_OVERHEAD_BYTES = 512;
    /** One partition's status (stage, device name, timings). */
    static final long PARTITION_OVERHEAD_BYTES = 256;

    static RetainedJob of(JobStatus status, JobResult result) {
        Optional<JobFailure> failure = result.failure().map(JobFailure::retained);
        return new RetainedJob(new JobStatus(status.id(), status.circuitId(), status.state(), status.priority(),
                status.partitions(), status.timings(), failure),
                new JobResult(result.id(), result.state(), result.proofs(), failure, result.timings()), true);
    }

    /** The same without its proofs. */
    RetainedJob withoutProofs() {
        return new RetainedJob(status, new JobResult(result.id(), result.state(), List.of(), result.failure(),
                result.timings()), result.state() != JobState.DONE);
    }

    /**
     * An upper bound of the heap this holds: a fixed allowance per job and partition, and every character of the
     * proofs and of the failure at two bytes (Latin-1 strings take one).
     */
    long heapBytes() {
        long bytes = JOB_OVERHEAD_BYTES + PARTITION_OVERHEAD_BYTES * status.partitions().size();
        for (ProofOutput p : result.proofs()) {
            bytes += 2L * (p.proofJson().length() + p.publicSignalsJson().length()) + 2 * 64;
        }
        bytes += result.failure().map(JobFailure::retainedHeapBytes).orElse(0L);
        return bytes;
    }
}
