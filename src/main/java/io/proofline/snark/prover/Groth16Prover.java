package io.proofline.snark.prover;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

import java.lang.foreign.Arena;

/**
 * One-call proving for the CLI and tests: synthesis into a private arena (unless the backend evaluates a/b/c on its
 * device), {@link ProverBackend#proveStart}, freeing a/b/c, then {@link ProverBackend#proveFinish}. The pipeline
 * drives the steps itself, with tracked buffers.
 */
public final class Groth16Prover {

    private final ProverBackend backend;

    public Groth16Prover(ProverBackend backend) {
        this.backend = backend;
    }

    public ProverBackend backend() {
        return backend;
    }

    /**
     * Proves that {@code witness} satisfies {@code key}'s circuit (as far as the key can tell: without the r1cs an
     * unsatisfying witness yields a proof that fails verification).
     *
     * @throws IllegalArgumentException for a witness of another curve or length, or with {@code w[0] ≠ 1}
     */
    public Proof prove(ProvingKey key, Witness witness) {
        Synthesis.checkShape(key, witness);
        if (!witness.value(0).equals(java.math.BigInteger.ONE)) {
            throw new IllegalArgumentException("witness value 0 is " + witness.value(0) + ", must be 1");
        }
        PendingProof pending;
        if (backend.abcOnDevice()) {
            return backend.proveFinish(backend.proveStart(key, witness, AbcSource.DEVICE));
        }
        try (Arena abcArena = Arena.ofShared()) {
            Synthesized abc = Synthesis.evaluate(key, witness, bytes -> abcArena.allocate(bytes, 8));
            pending = backend.proveStart(key, witness, AbcSource.host(abc));
        }
        return backend.proveFinish(pending);
    }
}
