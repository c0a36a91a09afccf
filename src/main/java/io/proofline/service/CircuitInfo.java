package io.proofline.service;

import java.time.Instant;

/**
 * A registered circuit.
 *
 * @param id            the zkey's SHA-256 (hex)
 * @param constraints   R1CS constraints ({@code nConstraints})
 * @param variables     {@code nVars}, the witness length
 * @param publicSignals {@code nPublic}
 * @param domainSize    {@code N}
 * @param zkeyBytes     the zkey's size, which is what a cached key holds in host memory
 */
public record CircuitInfo(String id, String name, String curve, long constraints, long variables, int publicSignals,
                          long domainSize, long zkeyBytes, boolean hasWasm, boolean hasR1cs, Instant createdAt) {
}
