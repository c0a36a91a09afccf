package io.proofline.engine;

/** How the pipeline bounds memory. */
public enum PipelinePolicy {
    /**
     * The product (DESIGN §4): a partition's bytes are reserved before synthesis and held until its buffers
     * are freed; the hand-off to the proving stage is bounded.
     */
    BUDGETED,
    /**
     * The pre-fix behaviour of DESIGN §1, kept only for tests and the benchmark: a synthesis permit is
     * released when synthesis ends, the hand-off is unbounded and no bytes are reserved, so synthesized
     * partitions pile up in front of a slow proving stage. Never the service's default.
     */
    BASELINE
}
