package io.proofline.engine.groth16;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.Synthesized;

/**
 * A synthesized partition: the key it was evaluated against, its witness and a/b/c, both in the engine's tracked
 * buffers (the engine frees them; nothing here owns memory). {@code abc} is null when a/b/c are left to prove start
 * (evaluated on the device, or late on the host for a device that reads them from there).
 */
public record SynthesizedPartition(ProvingKey key, Witness witness, Synthesized abc) {
}
