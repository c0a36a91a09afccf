package io.proofline.web.console;

import java.util.List;

/**
 * A registered circuit with where its proving key is cached now.
 *
 * @param cached one entry per place the key is resident (host memory, a GPU); empty when not loaded
 * @param state  REGISTERING, READY or FAILED
 * @param detail while REGISTERING the progress of the check ("B2 1,024 / 65,536 · 40%"), when FAILED the reason;
 *               empty otherwise
 */
public record CircuitRow(String id, String name, String curve, long constraints, long variables, int publicSignals,
                         long domainSize, long zkeyBytes, List<CachedKey> cached, String state, String detail) {

    public CircuitRow {
        cached = List.copyOf(cached);
    }

    /** A READY circuit. */
    public CircuitRow(String id, String name, String curve, long constraints, long variables, int publicSignals,
                      long domainSize, long zkeyBytes, List<CachedKey> cached) {
        this(id, name, curve, constraints, variables, publicSignals, domainSize, zkeyBytes, cached, "READY", "");
    }

    /**
     * A key resident in one place.
     *
     * @param place {@code host}, or the id of the GPU that holds it
     * @param pins  running jobs that use it (a pinned key is not evicted)
     */
    public record CachedKey(String place, long bytes, int pins, java.time.Duration idle) {
    }
}
