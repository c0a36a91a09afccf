package io.proofline.witness;

/** Which engine computed a witness ({@link CircomWitness#engine()}). */
public enum WitnessEngine {
    /** The circuit's witness graph, recorded from an earlier run of its wasm. */
    GRAPH,
    /** The circuit's wasm: a recording run, or an input the graph does not hold, or a circuit with no graph. */
    WASM
}
