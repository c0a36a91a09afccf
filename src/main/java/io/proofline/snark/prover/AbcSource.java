package io.proofline.snark.prover;

import io.proofline.snark.ProvingKey;

import java.util.Objects;

/**
 * Where {@link ProverBackend#proveStart} takes a = A·w, b = B·w, c = a∘b from: vectors the caller evaluated on the
 * host ({@link #host}), or the backend's device, which evaluates them there from the witness and the key's constraint
 * rows ({@link #DEVICE}, for a backend whose {@link ProverBackend#abcOnDevice()} is true).
 */
public sealed interface AbcSource {

    /** Evaluated by the backend on its device. */
    AbcSource DEVICE = new OnDevice();

    /** The caller's vectors: prove start may overwrite them, and the caller may free them once it returns. */
    static AbcSource host(Synthesized vectors) {
        return new Host(vectors);
    }

    /** a/b/c evaluated on the host. */
    record Host(Synthesized vectors) implements AbcSource {

        public Host {
            Objects.requireNonNull(vectors, "vectors");
        }

        /** The vectors, checked to span {@code key}'s domain. */
        public Synthesized vectorsFor(ProvingKey key) {
            if (vectors.domainSize() != key.domainSize()) {
                throw new IllegalArgumentException("a/b/c vectors of " + vectors.domainSize()
                        + " elements for a domain of " + key.domainSize());
            }
            return vectors;
        }
    }

    /** a/b/c evaluated on the backend's device. */
    record OnDevice() implements AbcSource {
    }
}
