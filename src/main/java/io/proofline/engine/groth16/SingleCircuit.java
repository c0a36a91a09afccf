package io.proofline.engine.groth16;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CircomWitnessCalculator;

import java.util.Objects;
import java.util.Optional;

/**
 * One loaded proving key as {@link Groth16Circuits}, for callers without a key cache (the CLI's pipeline
 * benchmark, tests). Witnesses come as {@code .wtns}; there is no witness calculator or constraint system.
 */
public final class SingleCircuit implements Groth16Circuits {

    private final String id;
    private final ProvingKey key;
    private final PreparedVerifyingKey verifyingKey;

    public SingleCircuit(String id, ProvingKey key) {
        this.id = Objects.requireNonNull(id, "id");
        this.key = Objects.requireNonNull(key, "key");
        this.verifyingKey = PreparedVerifyingKey.prepare(VerifyingKey.of(key));
    }

    public String id() {
        return id;
    }

    @Override
    public ProvingKey provingKey(String circuitId) {
        return require(circuitId, key);
    }

    @Override
    public PreparedVerifyingKey verifyingKey(String circuitId) {
        return require(circuitId, verifyingKey);
    }

    @Override
    public Optional<CircomWitnessCalculator> witnessCalculator(String circuitId) {
        require(circuitId, key);
        return Optional.empty();
    }

    @Override
    public Optional<R1cs> r1cs(String circuitId) {
        require(circuitId, key);
        return Optional.empty();
    }

    private <T> T require(String circuitId, T value) {
        if (!id.equals(circuitId)) {
            throw new IllegalArgumentException("unknown circuit " + circuitId + " (this holds only " + id + ")");
        }
        return value;
    }
}
