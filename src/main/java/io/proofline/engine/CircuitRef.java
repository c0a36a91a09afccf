package io.proofline.engine;

import java.util.Objects;

/**
 * The engine's view of a registered circuit: its identity and the dimensions that size a
 * partition's buffers. The {@link PartitionProver} adapter resolves the actual keys from {@code id}.
 *
 * @param id            the circuit id (the zkey's SHA-256 in the service)
 * @param variables     {@code m}, the witness length including {@code w[0] = 1}
 * @param domainSize    {@code N = 2^k}, the evaluation domain
 * @param publicSignals {@code nPublic}
 */
public record CircuitRef(String id, long variables, long domainSize, int publicSignals) {

    public CircuitRef {
        Objects.requireNonNull(id, "id");
        if (variables < 1 || domainSize < 1 || publicSignals < 0) {
            throw new IllegalArgumentException("bad circuit dimensions: m=" + variables + " N=" + domainSize
                    + " nPublic=" + publicSignals);
        }
        if (Long.bitCount(domainSize) != 1) {
            throw new IllegalArgumentException("domain size must be a power of two: " + domainSize);
        }
    }
}
