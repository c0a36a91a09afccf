/**
 * The devices the pipeline proves on: the {@link io.proofline.engine.device.ProvingDevice} port (a GPU, a logical
 * share of one, or the CPU), what a device reports ({@link io.proofline.engine.device.DeviceFigures},
 * {@link io.proofline.engine.device.DeviceMemory}) and how the engine waits for room. How a device call fails is the
 * prover backends' vocabulary, which the engine uses as it is: a fault of the device
 * ({@link io.proofline.snark.prover.DeviceFaultException}: its breaker counts it, the partition goes to another device)
 * or a partition that does not fit it ({@link io.proofline.snark.prover.DeviceCapacityException}: no blame).
 */
package io.proofline.engine.device;
