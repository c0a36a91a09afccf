package io.proofline.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A job to prove: 1..P partitions of one circuit.
 *
 * @param verify   whether to verify each proof; empty means the engine's {@code verifyProofs}
 * @param deadline time from submission after which the job fails; empty means none
 * @param onStart  runs once, on the synthesis thread, before the job's first partition is synthesized; the job's other
 *                 partitions wait for it (a service records there, durably, that the run has begun its work, so that
 *                 an instance's death before it is known to be none of the job's doing)
 * @param share    whose job it is, for fair queuing between tenants within its priority
 */
public record JobRequest(CircuitRef circuit, Priority priority, List<PartitionInput> partitions,
                         Optional<Boolean> verify, Optional<Duration> deadline, Runnable onStart, TenantShare share) {

    public JobRequest {
        Objects.requireNonNull(circuit, "circuit");
        Objects.requireNonNull(priority, "priority");
        partitions = List.copyOf(partitions);
        Objects.requireNonNull(verify, "verify");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(onStart, "onStart");
        Objects.requireNonNull(share, "share");
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("a job needs at least one partition");
        }
        deadline.ifPresent(d -> {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("a deadline must be positive: " + d);
            }
        });
    }

    public static Builder builder(CircuitRef circuit) {
        return new Builder(circuit);
    }

    public static final class Builder {
        private final CircuitRef circuit;
        private Priority priority = Priority.NORMAL;
        private final List<PartitionInput> partitions = new ArrayList<>();
        private Boolean verify;
        private Duration deadline;
        private Runnable onStart = () -> { };
        private TenantShare share = TenantShare.NONE;

        private Builder(CircuitRef circuit) {
            this.circuit = Objects.requireNonNull(circuit, "circuit");
        }

        public Builder priority(Priority value) {
            this.priority = value;
            return this;
        }

        public Builder partition(PartitionInput input) {
            partitions.add(Objects.requireNonNull(input, "input"));
            return this;
        }

        public Builder partitions(List<PartitionInput> inputs) {
            inputs.forEach(this::partition);
            return this;
        }

        public Builder verify(boolean value) {
            this.verify = value;
            return this;
        }

        public Builder deadline(Duration value) {
            this.deadline = value;
            return this;
        }

        /** See {@link JobRequest#onStart()}. */
        public Builder onStart(Runnable value) {
            this.onStart = Objects.requireNonNull(value, "onStart");
            return this;
        }

        /** See {@link JobRequest#share()}; by default {@link TenantShare#NONE}. */
        public Builder share(TenantShare value) {
            this.share = Objects.requireNonNull(value, "share");
            return this;
        }

        public JobRequest build() {
            return new JobRequest(circuit, priority, partitions, Optional.ofNullable(verify),
                    Optional.ofNullable(deadline), onStart, share);
        }
    }
}
