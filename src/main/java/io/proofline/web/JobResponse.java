package io.proofline.web;

import io.proofline.engine.JobState;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.PartitionRecord;
import io.proofline.service.jobs.Timings;

import java.time.Instant;
import java.util.List;

/** A job (REST {@code GET /api/v1/jobs/{id}}). */
record JobResponse(String id, String circuitId, JobState status, String priority, String requestId, Boolean verify,
                   int attempts, Instant createdAt, Instant startedAt, Instant finishedAt, List<Partition> partitions,
                   Timings timings, String error) {

    record Partition(int index, String stage, String device, Timings timings) {
    }

    static JobResponse of(JobService.JobView view) {
        var j = view.job();
        List<Partition> partitions = view.partitions().stream().map(JobResponse::partition).toList();
        return new JobResponse(j.id(), j.circuitId(), j.status(), j.priority().name(), j.requestId(), j.verify(),
                j.attempts(), j.createdAt(), j.startedAt(), j.finishedAt(), partitions,
                j.timings() == null ? io.proofline.service.jobs.Timings.ZERO : j.timings(), j.error());
    }

    static JobResponse summary(io.proofline.service.jobs.JobRecord j) {
        return new JobResponse(j.id(), j.circuitId(), j.status(), j.priority().name(), j.requestId(), j.verify(),
                j.attempts(), j.createdAt(), j.startedAt(), j.finishedAt(), null, j.timings(), j.error());
    }

    private static Partition partition(PartitionRecord p) {
        return new Partition(p.index(), p.stage() == null ? "QUEUED" : p.stage().name(), p.device(),
                p.timings() == null ? Timings.ZERO : p.timings());
    }
}
