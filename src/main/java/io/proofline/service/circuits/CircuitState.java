package io.proofline.service.circuits;

/** Where a circuit is in its registration; only a READY circuit takes jobs (409 otherwise). */
public enum CircuitState {
    /** Its files are in place; its proving key's points are being checked (GET shows the progress). */
    REGISTERING,
    /** Checked: it takes jobs. */
    READY,
    /** A point of its proving key is bad (the circuit's failure names the section and index); delete it. */
    FAILED
}
