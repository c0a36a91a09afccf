package io.proofline.engine.groth16;

import io.proofline.engine.device.ProvingDevice;

/** The CPU backend as the engine's one device when there is no GPU. */
public record CpuDevice(String id) implements ProvingDevice {

    public static final String ID = "cpu";

    public CpuDevice() {
        this(ID);
    }
}
