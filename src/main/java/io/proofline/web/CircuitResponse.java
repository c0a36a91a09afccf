package io.proofline.web;

import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitState;
import io.proofline.service.circuits.CircuitStatus;
import io.proofline.service.circuits.RegistrationProgress;

import java.time.Instant;
import java.util.List;

/**
 * A registered circuit (REST), with where its registration is: {@code state} REGISTERING (its points being checked,
 * {@code progress} per zkey section when the answering instance runs the check), READY (it takes jobs) or FAILED
 * ({@code failure} names the section and index of the bad point).
 */
record CircuitResponse(String id, String name, String curve, long constraints, long variables, int publicSignals,
                       long domainSize, long zkeyBytes, boolean hasWasm, boolean hasR1cs, Instant createdAt,
                       CircuitState state, String failure, List<SectionProgress> progress) {

    /** Points of one zkey section checked so far. */
    record SectionProgress(String section, long checked, long total) {
    }

    static CircuitResponse of(CircuitInfo c) {
        return of(new CircuitStatus(c, List.of()));
    }

    static CircuitResponse of(CircuitStatus status) {
        CircuitInfo c = status.circuit();
        List<SectionProgress> progress = status.progress().stream()
                .map((RegistrationProgress.Section s) -> new SectionProgress(s.name(), s.checked(), s.total()))
                .toList();
        return new CircuitResponse(c.id(), c.name(), c.curve(), c.constraints(), c.variables(), c.publicSignals(),
                c.domainSize(), c.zkeyBytes(), c.hasWasm(), c.hasR1cs(), c.createdAt(), c.state(), c.failure(),
                progress);
    }
}
