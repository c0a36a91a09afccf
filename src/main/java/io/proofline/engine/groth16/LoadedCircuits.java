package io.proofline.engine.groth16;

import io.proofline.snark.R1cs;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CircomWitnessCalculator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Several loaded circuits by id as {@link Groth16Circuits}, for callers without a key cache that prove more than one
 * circuit (the pipeline benchmark's mix of BN254 and BLS12-381 jobs).
 */
public final class LoadedCircuits implements Groth16Circuits {

    private final Map<String, SingleCircuit> circuits;

    public LoadedCircuits(Iterable<SingleCircuit> circuits) {
        Map<String, SingleCircuit> map = new LinkedHashMap<>();
        for (SingleCircuit c : circuits) {
            if (map.put(c.id(), c) != null) {
                throw new IllegalArgumentException("duplicate circuit id " + c.id());
            }
        }
        this.circuits = Map.copyOf(map);
    }

    @Override
    public io.proofline.snark.ProvingKey provingKey(String circuitId) {
        return circuit(circuitId).provingKey(circuitId);
    }

    @Override
    public PreparedVerifyingKey verifyingKey(String circuitId) {
        return circuit(circuitId).verifyingKey(circuitId);
    }

    @Override
    public Optional<CircomWitnessCalculator> witnessCalculator(String circuitId) {
        return circuit(circuitId).witnessCalculator(circuitId);
    }

    @Override
    public Optional<R1cs> r1cs(String circuitId) {
        return circuit(circuitId).r1cs(circuitId);
    }

    private SingleCircuit circuit(String circuitId) {
        SingleCircuit c = circuits.get(circuitId);
        if (c == null) {
            throw new IllegalArgumentException("unknown circuit " + circuitId + " (loaded: " + circuits.keySet() + ")");
        }
        return c;
    }
}
