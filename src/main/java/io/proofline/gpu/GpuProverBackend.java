package io.proofline.gpu;

import io.proofline.gpu.internal.CudaException;
import io.proofline.gpu.internal.CudaFaults;
import io.proofline.gpu.internal.GpuDevice;
import io.proofline.gpu.internal.GpuDevices;
import io.proofline.gpu.internal.GpuProverWorker;
import io.proofline.gpu.internal.ProveStartProbe;
import io.proofline.gpu.internal.ResidentKeyCache;
import io.proofline.algebra.curve.Msm;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.DeviceCapacityException;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.prover.DeviceFaultKind;
import io.proofline.snark.prover.DeviceUsage;
import io.proofline.snark.prover.DeviceShare;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProofAssembly;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The GPU backend ({@code --backend gpu}), a {@link DeviceProverBackend}: prove start — H by NTTs and the four G1
 * MSMs — on one CUDA device, with the key's G1 points resident there; prove finish — the G2 MSM ΣB2 with {@link Msm}
 * on CPU threads, as cuzk does, and the assembly — on the host, so the device can take the next partition meanwhile.
 *
 * <p>The device is opened on first use (the ServiceLoader makes instances just to read their names). Without a
 * usable GPU, {@link #proveStart} throws {@link GpuUnavailableException} ({@code no GPU available: <reason>}), a
 * {@link DeviceFaultKind#UNUSABLE} fault; a CUDA error during a proof becomes a {@link DeviceFaultException} —
 * {@link DeviceFaultKind#STICKY} when it broke the context, which {@link #reopen()} rebuilds — and running out of
 * device memory a {@link DeviceCapacityException}.
 *
 * <p>Settings come in a {@link GpuConfig}. Device memory for resident keys is half the device's share of
 * {@link GpuConfig#deviceMemoryBudgetBytes()} (by default half the device's memory); idle keys are evicted least
 * recently used first. Where {@link GpuConfig#b2()} places ΣB2 on the device (by default: when the key with its B2
 * section fits the key budget), the G2 MSM runs in prove start too, B2 resident with the G1 sections, and prove
 * finish only assembles.
 *
 * <p>One instance is one logical device: {@link #forDevice} makes a new instance per {@link DeviceShare}, so two
 * logical devices on one GPU have two workers (streams, modules, working buffers, key caches; the CUDA context is
 * the device's primary one, shared); their key budgets split the device's (half of the share's memory each).
 */
public final class GpuProverBackend implements DeviceProverBackend {

    public static final String NAME = "gpu";

    private static final System.Logger LOG = System.getLogger(GpuProverBackend.class.getName());

    private final int ordinal;
    private final GpuConfig config;
    /** Device bytes of this instance's share (0: the device's memory), before the keys' half is taken. */
    private final long shareBytes;
    /** Logical devices sharing the physical one; the share's key budget is divided by it. */
    private final int sharers;
    /** For messages: {@code GPU 0} or, for a logical device, {@code GPU 0 (gpu1)}. */
    private final String label;
    /** What the worker tells about each prove start: {@link ProveStartProbe#NONE} unless the lab times the steps. */
    private final ProveStartProbe probe;
    private GpuProverWorker worker;
    /** One prove start at a time on this logical device; a waiting one leaves when its partition is cancelled. */
    private final ReentrantLock proving = new ReentrantLock();
    /** The figures published after each prove start; read without a lock by {@link #deviceUsage()}. */
    private volatile DeviceUsage usage;

    /** Device 0 with the default settings (the ServiceLoader's instance). */
    public GpuProverBackend() {
        this(GpuConfig.DEFAULTS);
    }

    /** Device 0 with {@code config}. */
    public GpuProverBackend(GpuConfig config) {
        this(config, ProveStartProbe.NONE);
    }

    /**
     * Device 0 with {@code config}, each prove start told to {@code probe}: the seam of the lab's timing harness
     * (io.proofline.lab.gpu), which records the steps' device times; the service and the CLI never pass one.
     */
    public GpuProverBackend(GpuConfig config, ProveStartProbe probe) {
        this(0, config, config.deviceMemoryBudgetBytes(), 1, "GPU 0", probe);
    }

    private GpuProverBackend(int ordinal, GpuConfig config, long shareBytes, int sharers, String label,
                             ProveStartProbe probe) {
        if (ordinal < 0 || shareBytes < 0 || sharers < 1) {
            throw new IllegalArgumentException("device " + ordinal + ", memory budget " + shareBytes + ", shared by "
                    + sharers);
        }
        this.ordinal = ordinal;
        this.config = config;
        this.shareBytes = shareBytes;
        this.sharers = sharers;
        this.label = label;
        this.probe = probe;
    }

    /** The CUDA ordinal of the physical device. */
    public int ordinal() {
        return ordinal;
    }

    /** The settings this instance runs with. */
    public GpuConfig config() {
        return config;
    }

    /** The resident-key budget: half the share; 0 means half the device's memory over its sharers, read on open. */
    public long keyBudgetBytes() {
        return shareBytes / 2 / sharers;
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

    /**
     * A new instance for {@code share}: half of the share's memory (the share's budget, else this configuration's,
     * else the device's memory, divided by its sharers) for resident keys, the rest left to working buffers.
     */
    @Override
    public DeviceProverBackend forDevice(DeviceShare share) {
        long budget = share.memoryBudgetBytes() > 0 ? share.memoryBudgetBytes() : config.deviceMemoryBudgetBytes();
        return new GpuProverBackend(share.ordinal(), config, budget, share.sharers(),
                "GPU " + share.ordinal() + " (" + share.id() + ")", probe);
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


    /**
     * Prove start with a/b/c from the host (uploaded, whatever {@link GpuConfig#abc()} says) or evaluated on the
     * device from the key's resident constraint rows (where {@link #abcOnDevice()}).
     */
    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc) {
        return start(key, witness, hostVectors(key, abc));
    }

    /** Whether {@link GpuConfig#abc()} places a/b/c on the device (the default). */
    @Override
    public boolean abcOnDevice() {
        return config.abc() == GpuConfig.AbcPlacement.DEVICE;
    }

    /** The host's a/b/c, or null for a/b/c on the device (which the key's rows must be resident for). */
    private Synthesized hostVectors(ProvingKey key, AbcSource abc) {
        return switch (abc) {
            case AbcSource.Host host -> host.vectorsFor(key);
            case AbcSource.OnDevice device -> {
                if (!abcOnDevice()) {
                    throw new IllegalArgumentException(label + ": a/b/c are configured on the host (abc: host)");
                }
                yield null;
            }
        };
    }

    /**
     * Prove start on the worker; {@code abc} null: evaluated on the device. CUDA errors are sorted by what they say
     * about the device ({@link CudaFaults}): out of memory and a key over the key budget are capacity, not faults
     * ({@link DeviceCapacityException}); a sticky error closes the worker at once (releasing the broken context as
     * far as the driver lets) and is a {@link DeviceFaultKind#STICKY} fault; a device that cannot be opened an
     * {@link DeviceFaultKind#UNUSABLE} one.
     */
    private PendingProof start(ProvingKey key, Witness witness, Synthesized abc) {
        Synthesis.checkShape(key, witness);
        try {
            proving.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException(label + ": interrupted while waiting for the device");
        }
        try {
            // A partition cancelled while it waited for the device must not start a prove on it.
            if (Thread.currentThread().isInterrupted()) {
                throw new CancellationException(label + ": interrupted before prove start");
            }
            GpuProverWorker w = openedWorker();
            boolean broken = false;
            try {
                return w.proveStart(key, witness, abc);
            } catch (CudaException e) {
                if (CudaFaults.outOfMemory(e)) {
                    throw new DeviceCapacityException(label + ": " + e.getMessage(), e, true);
                }
                if (CudaFaults.sticky(e)) {
                    broken = true;
                    closeWorker();
                    throw new DeviceFaultException(label + ": " + e.getMessage(), e, DeviceFaultKind.STICKY);
                }
                throw new DeviceFaultException(label + ": " + e.getMessage(), e);
            } catch (ResidentKeyCache.BudgetExceededException e) {
                throw new DeviceCapacityException(label + ": " + e.getMessage(), e, e.everFits());
            } finally {
                // The worker's figures, read while no proof runs; the buffer table reads this published copy.
                if (!broken) {
                    publishUsage(w);
                }
            }
        } finally {
            proving.unlock();
        }
    }

    /** The worker, opened on first use; an open that fails is an {@link DeviceFaultKind#UNUSABLE} fault. */
    private GpuProverWorker openedWorker() {
        try {
            return worker();
        } catch (CudaException e) {
            throw new DeviceFaultException(label + " could not be opened: " + e.getMessage(), e,
                    DeviceFaultKind.UNUSABLE);
        }
    }

    /**
     * Closes the worker (its buffers, streams, kernels and its hold on the device's primary context, which the
     * driver destroys once no logical device holds it) and opens a new one. Waits for a prove start in progress.
     */
    @Override
    public void reopen() {
        proving.lock();
        try {
            closeWorker();
            openedWorker();
        } finally {
            proving.unlock();
        }
    }

    /** Closes the worker if open, best effort: after a sticky error the frees fail, the context is released anyway. */
    private synchronized void closeWorker() {
        if (worker == null) {
            return;
        }
        GpuProverWorker w = worker;
        worker = null;
        usage = null;
        try {
            w.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, label + ": closing the worker failed (" + e.getMessage()
                    + "); every other part of it was closed regardless");
        }
    }

    /**
     * What this backend holds on its device as of the end of its last prove start (or eviction): resident keys
     * ({@code KEY_DEVICE}), working buffers ({@code SCRATCH_DEVICE}) and the driver's used/free figures. Never
     * waits for a running proof.
     */
    @Override
    public DeviceUsage deviceUsage() {
        DeviceUsage u = usage;
        return u == null ? DeviceUsage.NOTHING_HELD : u;
    }

    private void publishUsage(GpuProverWorker w) {
        try {
            usage = w.usage();
        } catch (CudaException e) {
            // The figures are for display: a failing device keeps its last ones (the proof's own error is reported).
        }
    }

    @Override
    public Proof proveFinish(PendingProof pending) {
        if (pending.hasSumB2()) {
            return ProofAssembly.assemble(pending, pending.sumB2());
        }
        ProvingKey key = pending.key();
        long[] sumB2 = Msm.compute(key.curve().g2(), key.b2(), 0, pending.witness().canonical(), 0, key.nVars());
        return ProofAssembly.assemble(pending, sumB2);
    }

    /** Device bytes held by resident keys, and by working buffers; {0, 0} before the device was opened. */
    public synchronized long[] deviceBytes() {
        return worker == null ? new long[2] : new long[] {worker.keys().residentBytes(), worker.scratchBytes()};
    }

    /**
     * Frees {@code key}'s resident copy on this device if it is resident and no proof is using it (the key is about
     * to be closed, or a caller wants the memory back now rather than at the next eviction); returns whether it did.
     */
    @Override
    public synchronized boolean evict(ProvingKey key) {
        if (worker == null || !worker.evict(key)) {
            return false;
        }
        DeviceUsage u = usage;
        if (u != null) {
            usage = u.withKeys(worker.keys().size(), worker.keys().residentBytes());
        }
        return true;
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
            long share = shareBytes > 0 ? shareBytes : device.totalMemoryBytes();
            worker = new GpuProverWorker(device, share / 2 / sharers, config, probe);
            publishUsage(worker);
        }
        return worker;
    }

    @Override
    public synchronized void close() {
        if (worker != null) {
            worker.close();
            worker = null;
            usage = null;
        }
    }
}
