package io.proofline.gpu;

import io.proofline.gpu.internal.GpuDevices;

/** Whether this machine has a usable GPU (a driver, a device), for tests that run only with one or only without. */
public final class GpuPresence {

    private GpuPresence() {
    }

    public static boolean here() {
        try {
            GpuDevices.discover();
            return true;
        } catch (GpuUnavailableException e) {
            return false;
        }
    }
}
