/**
 * The Groth16 prover, split the way the pipeline drives it (DESIGN §2, §4):
 * <pre>
 *   Witness ──► {@link io.proofline.snark.prover.Synthesis}      a = A·w, b = B·w, c = a∘b   (ABC buffers, caller-allocated)
 *           ──► {@link io.proofline.snark.prover.ProverBackend#proveStart}
 *                 {@link io.proofline.snark.prover.Quotient}     h on the odd coset (3 iNTT, shift, 3 NTT)
 *                 G1 MSMs: ΣA, ΣB1 (whole witness), ΣC (private part), ΣH     → {@link io.proofline.snark.prover.PendingProof}
 *           ──► {@link io.proofline.snark.prover.ProverBackend#proveFinish}
 *                 G2 MSM ΣB2, {@link io.proofline.snark.prover.ProofAssembly} with fresh r, s     → Proof
 * </pre>
 * Prove start is told where a/b/c come from ({@link io.proofline.snark.prover.AbcSource}: the host's vectors, or
 * evaluated on the backend's device). {@link io.proofline.snark.prover.CpuProverBackend} is the pure-Java backend;
 * the GPU backend is a {@link io.proofline.snark.prover.DeviceProverBackend} (the same interface plus its device's
 * lifecycle) and is found by name through {@link io.proofline.snark.prover.ProverBackends}. A device call fails with
 * a {@link io.proofline.snark.prover.DeviceFaultException} or a {@link io.proofline.snark.prover.DeviceCapacityException}.
 * {@link io.proofline.snark.prover.Groth16Prover} is the one-call form used by the CLI.
 */
package io.proofline.snark.prover;
