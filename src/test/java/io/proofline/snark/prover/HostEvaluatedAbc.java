package io.proofline.snark.prover;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

import java.lang.foreign.Arena;

/**
 * For test doubles of a backend that evaluates a/b/c on its device ({@link ProverBackend#abcOnDevice()}, asked with
 * {@link AbcSource#DEVICE}): a/b/c evaluated here from the key's constraint rows, into memory of the call's own, then
 * handed to a prove start that takes them, as the device's scratch would be.
 */
public final class HostEvaluatedAbc {

    /** A prove start that is given a/b/c. */
    @FunctionalInterface
    public interface Start {
        PendingProof start(ProvingKey key, Witness witness, Synthesized abc);
    }

    private HostEvaluatedAbc() {
    }

    public static PendingProof proveStart(ProvingKey key, Witness witness, Start start) {
        try (ConstraintRows rows = ConstraintRows.of(key); Arena own = Arena.ofShared()) {
            return start.start(key, witness, rows.evaluate(witness, bytes -> own.allocate(bytes, 8)));
        }
    }
}
