/**
 * The Groth16 adapter of the engine's {@link io.proofline.engine.PartitionProver} port: the snark package's CPU
 * (or GPU) prover split into synthesis, prove start and prove finish, with the witness and a/b/c in the engine's
 * tracked off-heap buffers. No Spring: the CLI and benchmarks drive it through the engine alone.
 */
package io.proofline.engine.groth16;
