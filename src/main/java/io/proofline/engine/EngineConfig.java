package io.proofline.engine;

import io.proofline.engine.memory.AdmissionPolicy;
import io.proofline.engine.memory.FinishedJobsHeap;
import io.proofline.engine.memory.FixedMemory;
import io.proofline.engine.memory.MemoryPlan;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The engine's settings, immutable. {@link #builder()} fills in defaults; the Spring layer converts its
 * {@code proofline.*} properties into one of these.
 *
 * @param budgetBytes         the memory budget partitions and cached keys draw from
 * @param memoryPlan          how the memory limit was split into the fixed part and the budget; empty where a
 *                            budget was given without one (tests, benchmarks run in-process)
 * @param synthesisWorkers    synthesis threads
 * @param queueCapacity       partitions the priority queue admits; beyond it {@code submit} throws
 *                            {@link QueueFullException}
 * @param handoffCapacity     synthesized partitions that may wait for a device
 * @param finalizerThreads    threads for prove finish and verification
 * @param verifyProofs        verify every proof unless a job says otherwise
 * @param workersPerDevice    each device's bulkhead: prove starts it runs at once
 * @param admission           what a partition reserves: {@link AdmissionPolicy#BUDGETED}; another only in the lab
 * @param breakerMinimumCalls prove starts a device's breaker must have seen (of its last {@link #BREAKER_WINDOW})
 *                            before it judges; it opens when half or more of them were device faults
 * @param deviceRetryAfter    how long an open breaker keeps its device out before trying it again
 * @param queueFullRetryAfter what {@link QueueFullException#retryAfter()} suggests
 * @param admissionWait       how long the partition at the head of the queue waits for memory before the wait is
 *                            counted as an overrun ({@link DispatcherHealth#admissionOverruns()}); it keeps its place
 *                            and waits on: congestion never fails a job
 * @param stepTimeout         how long a port call on a device (prove start, prove finish) may run before the
 *                            device is taken for hung and the partition is proved elsewhere, where another device
 *                            can take it
 * @param finishedJobsBytes   the most heap bytes the engine keeps of finished jobs (their status, bounded failure
 *                            and proofs) for status queries; the oldest are forgotten first
 *                            ({@link io.proofline.engine.memory.FinishedJobsHeap})
 */
public record EngineConfig(long budgetBytes, Optional<MemoryPlan> memoryPlan, int synthesisWorkers, int queueCapacity,
                           int handoffCapacity, int finalizerThreads, boolean verifyProofs, int workersPerDevice,
                           AdmissionPolicy admission, int breakerMinimumCalls, Duration deviceRetryAfter,
                           Duration queueFullRetryAfter, Duration admissionWait, Duration stepTimeout,
                           long finishedJobsBytes) {

    /** The breaker's sliding window, counted in prove starts. */
    public static final int BREAKER_WINDOW = 10;
    /** The defaults below are the service's too: its property records take them from here. */
    public static final int DEFAULT_QUEUE_CAPACITY = 1024;
    /** cuzk ran with a hand-off of 1; 2 keeps one partition ready while another is being handed over. */
    public static final int DEFAULT_HANDOFF_CAPACITY = 2;
    public static final int DEFAULT_WORKERS_PER_DEVICE = 2;
    public static final int DEFAULT_FINALIZER_THREADS = 2;
    public static final boolean DEFAULT_VERIFY_PROOFS = true;
    /** What a full queue's refusal suggests to wait, in seconds. */
    public static final int DEFAULT_QUEUE_FULL_RETRY_AFTER_SECONDS = 5;
    /** How long the head of the queue waits for memory by default, in minutes. */
    public static final int DEFAULT_ADMISSION_WAIT_MINUTES = 10;
    /** How long one prove start or prove finish may run before its device is taken for hung, in minutes. */
    public static final int DEFAULT_STEP_TIMEOUT_MINUTES = 10;

    public EngineConfig {
        Objects.requireNonNull(memoryPlan, "memoryPlan");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(deviceRetryAfter, "deviceRetryAfter");
        Objects.requireNonNull(queueFullRetryAfter, "queueFullRetryAfter");
        Objects.requireNonNull(admissionWait, "admissionWait");
        if (admissionWait.isNegative() || admissionWait.isZero()) {
            throw new IllegalArgumentException("admissionWait must be positive: " + admissionWait);
        }
        Objects.requireNonNull(stepTimeout, "stepTimeout");
        if (stepTimeout.isNegative() || stepTimeout.isZero()) {
            throw new IllegalArgumentException("stepTimeout must be positive: " + stepTimeout);
        }
        positive("budgetBytes", budgetBytes);
        positive("finishedJobsBytes", finishedJobsBytes);
        positive("synthesisWorkers", synthesisWorkers);
        positive("queueCapacity", queueCapacity);
        positive("handoffCapacity", handoffCapacity);
        positive("finalizerThreads", finalizerThreads);
        positive("workersPerDevice", workersPerDevice);
        positive("breakerMinimumCalls", breakerMinimumCalls);
        if (breakerMinimumCalls > BREAKER_WINDOW) {
            throw new IllegalArgumentException("breakerMinimumCalls must be at most " + BREAKER_WINDOW);
        }
        if (memoryPlan.isPresent() && memoryPlan.get().budgetBytes() != budgetBytes) {
            throw new IllegalArgumentException("budgetBytes must be the memory plan's budget");
        }
    }

    /** The synthesis workers when none are configured: half the processors, at least one. */
    public static int defaultSynthesisWorkers() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The defaults: the budget of this process's {@link MemoryPlan}. */
    public static EngineConfig defaults() {
        return builder().build();
    }

    private static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    public static final class Builder {
        private Long budgetBytes;
        private MemoryPlan memoryPlan;
        private int synthesisWorkers = defaultSynthesisWorkers();
        private int queueCapacity = DEFAULT_QUEUE_CAPACITY;
        private int handoffCapacity = DEFAULT_HANDOFF_CAPACITY;
        private int finalizerThreads = DEFAULT_FINALIZER_THREADS;
        private boolean verifyProofs = DEFAULT_VERIFY_PROOFS;
        private int workersPerDevice = DEFAULT_WORKERS_PER_DEVICE;
        private AdmissionPolicy admission = AdmissionPolicy.BUDGETED;
        private int breakerMinimumCalls = 3;
        private Duration deviceRetryAfter = Duration.ofSeconds(30);
        private Duration queueFullRetryAfter = Duration.ofSeconds(DEFAULT_QUEUE_FULL_RETRY_AFTER_SECONDS);
        private Duration admissionWait = Duration.ofMinutes(DEFAULT_ADMISSION_WAIT_MINUTES);
        private Duration stepTimeout = Duration.ofMinutes(DEFAULT_STEP_TIMEOUT_MINUTES);
        private Long finishedJobsBytes;

        private Builder() {
        }

        /** An explicit budget without a plan (tests, in-process benchmarks); it replaces any plan. */
        public Builder budgetBytes(long value) {
            this.budgetBytes = value;
            this.memoryPlan = null;
            return this;
        }

        /** The plan whose budget the engine uses (the service's way). */
        public Builder memoryPlan(MemoryPlan value) {
            this.memoryPlan = Objects.requireNonNull(value, "memoryPlan");
            this.budgetBytes = null;
            return this;
        }

        public Builder synthesisWorkers(int value) {
            this.synthesisWorkers = value;
            return this;
        }

        public Builder queueCapacity(int value) {
            this.queueCapacity = value;
            return this;
        }

        public Builder handoffCapacity(int value) {
            this.handoffCapacity = value;
            return this;
        }

        public Builder finalizerThreads(int value) {
            this.finalizerThreads = value;
            return this;
        }

        public Builder verifyProofs(boolean value) {
            this.verifyProofs = value;
            return this;
        }

        public Builder workersPerDevice(int value) {
            this.workersPerDevice = value;
            return this;
        }

        public Builder admission(AdmissionPolicy value) {
            this.admission = Objects.requireNonNull(value, "admission");
            return this;
        }

        public Builder breakerMinimumCalls(int value) {
            this.breakerMinimumCalls = value;
            return this;
        }

        public Builder deviceRetryAfter(Duration value) {
            this.deviceRetryAfter = value;
            return this;
        }

        public Builder queueFullRetryAfter(Duration value) {
            this.queueFullRetryAfter = value;
            return this;
        }

        public Builder admissionWait(Duration value) {
            this.admissionWait = value;
            return this;
        }

        public Builder stepTimeout(Duration value) {
            this.stepTimeout = value;
            return this;
        }

        /** The heap bytes kept of finished jobs; by default the plan's declared figure, else the heap rule's. */
        public Builder finishedJobsBytes(long value) {
            this.finishedJobsBytes = value;
            return this;
        }

        public EngineConfig build() {
            MemoryPlan plan = memoryPlan;
            if (plan == null && budgetBytes == null) {
                plan = MemoryPlan.detect(OptionalLong.empty(), FixedMemory.ofThisJvm(FixedMemory.DEFAULT_MAX_THREADS,
                        0, FixedMemory.DEFAULT_MARGIN_BYTES), OptionalLong.empty());
            }
            long budget = plan != null ? plan.budgetBytes() : budgetBytes;
            long finished = finishedJobsBytes != null ? finishedJobsBytes
                    : plan != null && plan.fixed().finishedJobsBytes() > 0 ? plan.fixed().finishedJobsBytes()
                    : FinishedJobsHeap.defaultBytes(Runtime.getRuntime().maxMemory());
            return new EngineConfig(budget, Optional.ofNullable(plan), synthesisWorkers, queueCapacity, handoffCapacity,
                    finalizerThreads, verifyProofs, workersPerDevice, admission, breakerMinimumCalls, deviceRetryAfter,
                    queueFullRetryAfter, admissionWait, stepTimeout, finished);
        }
    }
}
