/**
 * The devices the pipeline proves on: the {@link io.proofline.engine.device.ProvingDevice} port (a GPU, a logical
 * share of one, or the CPU), what a device reports ({@link io.proofline.engine.device.DeviceFigures},
 * {@link io.proofline.engine.device.DeviceMemory}) and how a device call fails: a fault of the device (its breaker
 * counts it, the partition goes to another device) or a partition that does not fit it (no blame).
 */
package io.proofline.engine.device;
