package io.proofline.lab.bench;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.DeviceShare;
import io.proofline.snark.prover.DeviceUsage;

import java.util.Optional;

/** {@link BusyTrackingBackend} for a backend with a device of its own: the device's lifecycle is the delegate's. */
final class BusyTrackingDeviceBackend extends BusyTrackingBackend implements DeviceProverBackend {

    private final DeviceProverBackend device;

    BusyTrackingDeviceBackend(DeviceProverBackend delegate, BusyClock physical) {
        super(delegate, physical);
        this.device = delegate;
    }

    @Override
    public Optional<String> unavailableReason() {
        return device.unavailableReason();
    }

    @Override
    public int deviceCount() {
        return device.deviceCount();
    }

    @Override
    public DeviceProverBackend forDevice(DeviceShare share) {
        return device.forDevice(share);
    }

    @Override
    public DeviceUsage deviceUsage() {
        return device.deviceUsage();
    }

    @Override
    public void reopen() {
        device.reopen();
    }

    @Override
    public boolean evict(ProvingKey key) {
        return device.evict(key);
    }

    @Override
    public void close() {
        device.close();
    }
}
