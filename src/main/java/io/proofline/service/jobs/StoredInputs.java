package io.proofline.service.jobs;

import io.proofline.engine.CircuitRef;
import io.proofline.service.DataDirectory;
import io.proofline.service.circuits.CircuitInfo;
import io.proofline.engine.JobRequest;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.TenantShare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A job's inputs as the engine reads them: each partition's file under {@code jobs/<id>/}, read when its partition is
 * synthesized, so that a queued job holds none of them in memory.
 */
final class StoredInputs {

    private StoredInputs() {
    }

    /**
     * The engine's request for {@code job}: its circuit, priority, verification and the time left before its
     * client's deadline ({@code deadline}, null for none), its stored inputs, {@code onStart} for when its work
     * begins, and its tenant's {@code share} of the queue.
     *
     * @throws java.nio.file.NoSuchFileException when an input is gone (the job cannot run)
     * @throws IOException                       when an input cannot be looked at now (transient: it runs later)
     */
    static JobRequest request(DataDirectory data, JobRecord job, List<PartitionRecord> partitions, CircuitInfo circuit,
                              Duration deadline, Runnable onStart, TenantShare share) throws IOException {
        CircuitRef ref = new CircuitRef(circuit.id(), circuit.variables(), circuit.domainSize(),
                circuit.publicSignals());
        JobRequest.Builder builder = JobRequest.builder(ref).priority(job.priority()).onStart(onStart)
                .share(share);
        if (job.verify() != null) {
            builder.verify(job.verify());
        }
        if (deadline != null) {
            builder.deadline(deadline);
        }
        for (PartitionRecord p : partitions) {
            Path file = JobRunner.inputFile(data, job.id(), p.index(), p.format());
            builder.partition(PartitionInput.stored(p.format(), file, Files.size(file)));
        }
        return builder.build();
    }
}
