package io.proofline.service.circuits;

import java.util.List;

/**
 * A circuit with the progress of its check while it is REGISTERING (empty when READY or FAILED, or when another
 * instance runs the check).
 */
public record CircuitStatus(CircuitInfo circuit, List<RegistrationProgress.Section> progress) {

    public CircuitStatus {
        progress = List.copyOf(progress);
    }
}
