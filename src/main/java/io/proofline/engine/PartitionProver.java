package io.proofline.engine;

import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.BufferAllocator;
import io.proofline.engine.memory.PartitionFootprint;

/**
 * The port the engine drives: one Groth16 proof of one partition, split where its memory changes
 * (DESIGN §2, §3). A CPU or GPU backend implements it through a thin adapter.
 *
 * <p>Contract:
 * <ul>
 *   <li>{@link #synthesize} allocates the WITNESS and ABC buffers through the allocator it is given (which
 *       refuses more than {@link #footprint} allows) and computes into their {@link io.proofline.engine.memory.OffHeapBuffer#segment()}.</li>
 *   <li>{@link #proveStart} runs on one device, may allocate PENDING buffers (and ABC ones, up to
 *       {@link #lateAbcBytes}), and must not keep the ABC buffers: the engine frees them and returns their bytes to the budget as soon as it returns.
 *       It throws {@link io.proofline.snark.prover.DeviceFaultException} when the device (not the partition) is at fault; the
 *       engine then opens that device's breaker if faults accumulate and retries on another device.</li>
 *   <li>{@link #proveFinish} is called on a finalizer thread with the same device that ran prove start;
 *       after it returns the engine frees all the partition's buffers.</li>
 *   <li>Cancellation and deadlines interrupt the calling thread; long computations should check
 *       {@link Thread#isInterrupted()} and throw {@link InterruptedException}. The engine also checks
 *       between calls, so an uninterruptible call delays a cancellation by one stage at most.</li>
 * </ul>
 *
 * @param <S> the adapter's synthesized partition (refers to its WITNESS and ABC buffers)
 * @param <P> the adapter's pending proof (the G1 MSM results and what finish still needs)
 */
public interface PartitionProver<S, P> {

    /** The bytes per class one partition of {@code circuit} holds; usually {@link PartitionFootprint#groth16}. */
    PartitionFootprint footprint(CircuitRef circuit);

    /** Obtains the witness and evaluates a, b, c (unless the footprint leaves them to the devices). */
    S synthesize(PartitionWork work, BufferAllocator allocator) throws Exception;

    /**
     * The ABC bytes a partition of {@code circuit} needs before prove start on {@code device} beyond its footprint:
     * when the footprint leaves a/b/c out because the devices evaluate them, a device that reads them from the host
     * (the CPU fallback beside GPUs) has them evaluated in prove start. The engine reserves these bytes from the
     * budget just before, lets the partition allocate them as ABC, and frees and returns them when prove start ends,
     * on every path. 0 by default.
     */
    default long lateAbcBytes(ProvingDevice device, CircuitRef circuit) {
        return 0;
    }

    /** H (NTTs) and the G1 MSMs on {@code device}; afterwards the ABC buffers are dead. */
    P proveStart(ProvingDevice device, S synthesized, BufferAllocator allocator) throws Exception;

    /** The G2 MSM for B2 and the assembly with random {@code r, s}. */
    ProofOutput proveFinish(ProvingDevice device, P pending) throws Exception;

    /** The pairing check of {@code proof} against the circuit's verification key. */
    boolean verify(CircuitRef circuit, ProofOutput proof) throws Exception;
}
