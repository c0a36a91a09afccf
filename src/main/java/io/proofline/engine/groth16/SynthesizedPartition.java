package io.proofline.engine.groth16;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.Synthesized;

/**
 * A synthesized partition: the key it was evaluated against, its witness and a/b/c, both in the engine's tracked
 * buffers (the engine frees them; nothing here owns memory).
 */
public record SynthesizedPartition(ProvingKey key, Witness witness, Synthesized abc) {
}
