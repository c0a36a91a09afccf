package io.proofline.engine;

/** Verification of a freshly made proof failed (a prover bug or a corrupted key: never returned to a client). */
public final class InvalidProofException extends EngineException {

    public InvalidProofException(JobId job, int partition) {
        super("the proof of job " + job + " partition " + partition + " does not verify");
    }
}
