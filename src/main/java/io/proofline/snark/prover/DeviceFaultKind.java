package io.proofline.snark.prover;

/** What a {@link DeviceFaultException} says about its device, and so what the engine does with the device. */
public enum DeviceFaultKind {

    /** One failed call: it counts against the device's breaker, which opens once such faults accumulate. */
    TRANSIENT,

    /**
     * The device could not be opened (its lazy initialisation failed): every call would fail the same way, so the
     * breaker opens at once and the device is tried again only after its retry time.
     */
    UNUSABLE,

    /**
     * The device's context is unusable until rebuilt (a sticky CUDA error such as an illegal address): the breaker
     * opens at once, and the engine resets the device ({@link DeviceProverBackend#reopen()}) before its half-open
     * trial.
     */
    STICKY
}
