package io.proofline.engine;

import io.proofline.engine.device.ProvingDevice;

/** A named device for tests; a fallback one stands for the CPU backend beside GPUs. */
record TestDevice(String id, boolean fallback) implements ProvingDevice {

    TestDevice(String id) {
        this(id, false);
    }
}
