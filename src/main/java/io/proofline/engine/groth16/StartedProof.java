package io.proofline.engine.groth16;

import io.proofline.snark.prover.PendingProof;

import java.util.Objects;

/**
 * A pending proof with the device that started it. Only that device's backend may finish it: a backend may keep
 * device buffers or per-device state behind the pending handle, so {@link Groth16PartitionProver#proveFinish}
 * refuses any other device.
 *
 * @param deviceId the id of the device whose backend ran prove start
 * @param pending  the backend's pending proof
 */
public record StartedProof(String deviceId, PendingProof pending) {

    public StartedProof {
        Objects.requireNonNull(deviceId, "deviceId");
        Objects.requireNonNull(pending, "pending");
    }
}
