/**
 * circom witness computation on the JVM: runs a circuit's witness-calculator {@code .wasm}
 * ({@code circom --wasm}, circom 2.x) on Chicory, with the {@code runtime.*} imports that circom's
 * {@code witness_calculator.js} provides.
 *
 * <pre>
 *   input.json ──WitnessInput──► CircomWitnessCalculator.calculate ──► CircomWitness ──► prover (or .wtns)
 *                                 (module parsed + compiled once,        (n8-byte LE values,
 *                                  one wasm instance per computation)     section 2 as is)
 * </pre>
 * No Spring: the CLI ({@code fullprove}) and the engine use it directly. Failures are
 * {@link io.proofline.witness.WitnessException}s carrying circom's own message.
 */
package io.proofline.witness;
