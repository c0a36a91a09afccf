package io.proofline.witness;

import java.util.List;

/**
 * What a computation into the caller's memory ({@link CircomWitnessCalculator#calculateInto}) leaves besides the
 * witness: which engine computed it and what the circuit printed with {@code log()}.
 */
public record WitnessRun(WitnessEngine engine, List<String> log) {

    public WitnessRun {
        log = List.copyOf(log);
    }
}
