package io.proofline.gpu;

import io.proofline.algebra.curve.Msm;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.BackendFaultException;
import io.proofline.snark.prover.DeviceShare;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProofAssembly;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The GPU {@link ProverBackend} ({@code --backend gpu}): prove start — H by NTTs and the four G1 MSMs — on one CUDA
 * device, with the key's G1 points resident there; prove finish — the G2 MSM ΣB2 with {@link Msm} on CPU threads, as
 * cuzk does, and the assembly — on the host, so the device can take the next partition meanwhile.
 *
 * <p>The device is opened on first use (the ServiceLoader makes instances just to read their names). Without a
 * usable GPU, {@link #proveStart} throws {@link GpuUnavailableException} ({@code no GPU available: <reason>}); a CUDA
 * error during a proof becomes a {@link BackendFaultException}.
 *
 * <p>Device memory for resident keys is bounded per device by the system property {@value #KEY_BUDGET_PROPERTY}
 * (bytes), by default half the device's memory; idle keys are evicted least recently used first.
 *
 * <p>One instance is one logical device: {@link #forDevice} makes a new instance per {@link DeviceShare}, so two
 * logical devices on one GPU have two workers (streams, modules, working buffers, key caches; the CUDA context is the device's
 * primary one, shared); their key budgets split the device's
 * (half of the share's memory each).
 */
public final class GpuProverBackend implements ProverBackend, AutoCloseable {

    public static final String NAME = "gpu";
    /** System property: device bytes the resident keys of one device may take. */
    public static final String KEY_BUDGET_PROPERTY = "proofline.gpu.key-budget-bytes";

    private final int ordinal;
    private final long keyBudgetBytes;
    /** Logical devices sharing the physical one; a default key budget (0) is divided by it. */
    private final int sharers;
    /** For messages: {@code GPU 0} or, for a logical device, {@code GPU 0 (gpu1)}. */
    private final String label;
    private GpuProverWorker worker;

    /** Device 0, key budget from {@value #KEY_BUDGET_PROPERTY} or half the device's memory. */
    public GpuProverBackend() {
        this(0, Long.getLong(KEY_BUDGET_PROPERTY, 0L));
    }

    /**
     * @param keyBudgetBytes device bytes for resident keys; 0 means half the device's memory
     */
    public GpuProverBackend(int ordinal, long keyBudgetBytes) {
        this(ordinal, keyBudgetBytes, 1, "GPU " + ordinal);
    }

    private GpuProverBackend(int ordinal, long keyBudgetBytes, int sharers, String label) {
        if (ordinal < 0 || keyBudgetBytes < 0 || sharers < 1) {
            throw new IllegalArgumentException("device " + ordinal + ", key budget " + keyBudgetBytes + ", shared by "
                    + sharers);
        }
        this.ordinal = ordinal;
        this.keyBudgetBytes = keyBudgetBytes;
        this.sharers = sharers;
        this.label = label;
    }

    /** The CUDA ordinal of the physical device. */
    public int ordinal() {
        return ordinal;
    }

    /** The resident-key budget this instance was given; 0 means half the device's memory over its sharers. */
    public long keyBudgetBytes() {
        return keyBudgetBytes;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unavailableReason() {
        try {
            worker();
            return Optional.empty();
        } catch (GpuUnavailableException e) {
            return Optional.of(e.getMessage());
        } catch (CudaException e) {
            return Optional.of("no GPU available: " + e.getMessage());
        }
    }

    @Override
    public ProverBackend onDevice(int deviceOrdinal) {
        return deviceOrdinal == ordinal ? this : new GpuProverBackend(deviceOrdinal, keyBudgetBytes);
    }

    /**
     * A new instance for {@code share}: half of the share's memory (the share's budget, else the device's memory,
     * divided by its sharers) for resident keys, the rest left to working buffers.
     */
    @Override
    public ProverBackend forDevice(DeviceShare share) {
        long budget = share.memoryBudgetBytes() > 0 ? share.memoryBudgetBytes() / 2 / share.sharers() : 0;
        return new GpuProverBackend(share.ordinal(), budget, share.sharers(),
                "GPU " + share.ordinal() + " (" + share.id() + ")");
    }

    /** The CUDA devices present; 0 without a driver or device. */
    @Override
    public int deviceCount() {
        try {
            return GpuDevices.discover().size();
        } catch (GpuUnavailableException | CudaException e) {
            return 0;
        }
    }

    @Override
    public OptionalLong deviceBytesInUse() {
        long[] bytes = deviceBytes();
        return OptionalLong.of(bytes[0] + bytes[1]);
    }

    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, Synthesized abc) {
        Synthesis.checkShape(key, witness);
        if (abc.domainSize() != key.domainSize()) {
            throw new IllegalArgumentException("a/b/c vectors of " + abc.domainSize() + " elements for a domain of "
                    + key.domainSize());
        }
        GpuProverWorker w = worker();
        try {
            return w.proveStart(key, witness, abc);
        } catch (CudaException | ResidentKeyCache.BudgetExceededException e) {
            throw new BackendFaultException(label + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Proof proveFinish(PendingProof pending) {
        ProvingKey key = pending.key();
        long[] sumB2 = Msm.compute(key.curve().g2(), key.b2(), 0, pending.witness().canonical(), 0, key.nVars());
        return ProofAssembly.assemble(pending, sumB2);
    }

    /** Device bytes held by resident keys, and by working buffers; {0, 0} before the device was opened. */
    public synchronized long[] deviceBytes() {
        return worker == null ? new long[2] : new long[] {worker.keys().residentBytes(), worker.scratchBytes()};
    }

    /** The opened device; throws {@link GpuUnavailableException} when there is none. */
    public synchronized GpuDevice device() {
        return worker().device();
    }

    private synchronized GpuProverWorker worker() {
        if (worker == null) {
            List<GpuDevice> devices = GpuDevices.discover();
            if (ordinal >= devices.size()) {
                throw new GpuUnavailableException("device " + ordinal + " requested, " + devices.size() + " present");
            }
            GpuDevice device = devices.get(ordinal);
            long budget = keyBudgetBytes > 0 ? keyBudgetBytes : device.totalMemoryBytes() / 2 / sharers;
            worker = new GpuProverWorker(device, budget);
        }
        return worker;
    }

    @Override
    public synchronized void close() {
        if (worker != null) {
            worker.close();
            worker = null;
        }
    }
}
