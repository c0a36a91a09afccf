/**
 * circom witness computation on the JVM: a circuit's witness graph, recorded from one run of its witness-calculator
 * {@code .wasm} ({@code circom --wasm}, circom 2), and the wasm itself on Chicory, with the {@code runtime.*} imports
 * that circom's {@code witness_calculator.js} provides, for what the graph does not hold.
 *
 * <pre>
 *   input.json ──WitnessInput──► CircomWitnessCalculator.calculate ──► CircomWitness ──► prover (or .wtns)
 *                                 first: a recording run (the wasm,       (n8-byte LE values,
 *                                  field functions on the host) → graph     section 2 as is)
 *                                 then: the graph (guards hold) or the wasm
 * </pre>
 * No Spring: the CLI ({@code fullprove}) and the engine use it directly. Failures are
 * {@link io.proofline.witness.WitnessException}s carrying circom's own message (from the wasm, which computes every
 * input the graph turns away).
 */
package io.proofline.witness;
