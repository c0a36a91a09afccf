package io.proofline.snark.prover;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;

import java.util.Optional;

/**
 * A base for test doubles of a {@link DeviceProverBackend}: one device present and usable, nothing held on it, a
 * lifecycle that does nothing, and no proofs; each double overrides what its test is about.
 */
public abstract class DeviceBackendDouble implements DeviceProverBackend {

    @Override
    public Optional<String> unavailableReason() {
        return Optional.empty();
    }

    @Override
    public int deviceCount() {
        return 1;
    }

    @Override
    public DeviceProverBackend forDevice(DeviceShare share) {
        return this;
    }

    @Override
    public DeviceUsage deviceUsage() {
        return DeviceUsage.NOTHING_HELD;
    }

    @Override
    public void reopen() {
    }

    @Override
    public boolean evict(ProvingKey key) {
        return false;
    }

    @Override
    public void close() {
    }

    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc) {
        throw new UnsupportedOperationException(name() + " is a test double that proves nothing");
    }

    @Override
    public Proof proveFinish(PendingProof pending) {
        throw new UnsupportedOperationException(name() + " is a test double that proves nothing");
    }
}
