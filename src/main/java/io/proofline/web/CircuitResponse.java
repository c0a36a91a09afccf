package io.proofline.web;

import io.proofline.service.CircuitInfo;

import java.time.Instant;

/** A registered circuit (REST). */
record CircuitResponse(String id, String name, String curve, long constraints, long variables, int publicSignals,
                       long domainSize, long zkeyBytes, boolean hasWasm, boolean hasR1cs, Instant createdAt) {

    static CircuitResponse of(CircuitInfo c) {
        return new CircuitResponse(c.id(), c.name(), c.curve(), c.constraints(), c.variables(), c.publicSignals(),
                c.domainSize(), c.zkeyBytes(), c.hasWasm(), c.hasR1cs(), c.createdAt());
    }
}
