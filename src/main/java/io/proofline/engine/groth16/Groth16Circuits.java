package io.proofline.engine.groth16;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CircomWitnessCalculator;

import java.util.Optional;

/**
 * What the Groth16 adapter needs to know about a circuit, by id. The service's key cache implements it; the
 * caller of the engine keeps a circuit's proving key loaded (pinned) while a job of it runs, so lookups here
 * do not load or block.
 */
public interface Groth16Circuits {

    /** The parsed proving key, loaded for a running job. */
    ProvingKey provingKey(String circuitId);

    /** The verification key, prepared for pairing checks. */
    PreparedVerifyingKey verifyingKey(String circuitId);

    /** The circuit's witness calculator, when a {@code .wasm} was registered (enables input partitions). */
    Optional<CircomWitnessCalculator> witnessCalculator(String circuitId);

    /** The circuit's constraint system, when an {@code .r1cs} was registered (enables the constraint check). */
    Optional<R1cs> r1cs(String circuitId);
}
