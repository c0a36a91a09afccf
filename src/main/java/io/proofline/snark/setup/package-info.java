/**
 * INSECURE development setups: synthetic circuits with a known-secret Groth16 key in snarkjs's format, for demos and
 * benchmarks ({@code dev-circuit}). Never use their keys for anything of value.
 */
package io.proofline.snark.setup;
