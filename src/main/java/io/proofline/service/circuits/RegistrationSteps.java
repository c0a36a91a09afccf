package io.proofline.service.circuits;

import java.io.IOException;

/**
 * The points a registration passes, in order; the service reports each to this listener. The service's own listener
 * does nothing: the tests inject a failure at each point and check that nothing of the registration is left behind,
 * or hold the check at {@link Step#CHECKED} to see a circuit REGISTERING.
 */
@FunctionalInterface
public interface RegistrationSteps {

    enum Step {
        /** Every part is copied into the staging directory under {@code data/tmp}. */
        STAGED,
        /** The parts are validated and the verification key is written beside them, still in staging. */
        VALIDATED,
        /** The circuit's row is inserted (not yet committed). */
        INSERTED,
        /** The staging directory is renamed to the circuit's directory. */
        PUBLISHED,
        /** The registering key is given the use of the circuit; the commit follows. */
        GRANTED,
        /**
         * Off the request thread: the point sections are checked; the circuit's state (READY or FAILED) is stored
         * next. A failure here fails the circuit; an interruption (shutdown) leaves it REGISTERING.
         */
        CHECKED
    }

    RegistrationSteps NONE = step -> {
    };

    void reached(Step step) throws IOException;
}
