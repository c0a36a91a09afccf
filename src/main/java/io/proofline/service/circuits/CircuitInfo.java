package io.proofline.service.circuits;

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
 * @param state         where its registration is: only a READY circuit takes jobs
 * @param failure       why it FAILED (the section and index of the bad point), else null
 */
public record CircuitInfo(String id, String name, String curve, long constraints, long variables, int publicSignals,
                          long domainSize, long zkeyBytes, boolean hasWasm, boolean hasR1cs, Instant createdAt,
                          CircuitState state, String failure) {

    /** A READY circuit (one whose key was checked). */
    public CircuitInfo(String id, String name, String curve, long constraints, long variables, int publicSignals,
                       long domainSize, long zkeyBytes, boolean hasWasm, boolean hasR1cs, Instant createdAt) {
        this(id, name, curve, constraints, variables, publicSignals, domainSize, zkeyBytes, hasWasm, hasR1cs,
                createdAt, CircuitState.READY, null);
    }

    public boolean ready() {
        return state == CircuitState.READY;
    }

    public CircuitInfo withState(CircuitState newState, String why) {
        return new CircuitInfo(id, name, curve, constraints, variables, publicSignals, domainSize, zkeyBytes, hasWasm,
                hasR1cs, createdAt, newState, why);
    }
}
