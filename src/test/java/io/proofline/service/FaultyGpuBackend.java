package io.proofline.service;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.DeviceBackendDouble;
import io.proofline.snark.prover.DeviceCapacityException;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.prover.DeviceFaultKind;
import io.proofline.snark.prover.PendingProof;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test double of the GPU backend port that behaves as the GPU backend does around its faults: the device is opened
 * lazily, on the first prove start, and the open can fail; a sticky fault breaks the "context", after which every
 * prove start fails the same way until {@link #reopen()}; keys stay resident (by identity, as the GPU backend keeps
 * them) until {@link #evict}ed; a key over the key budget never fits and an out-of-memory start may fit later.
 * Proofs are computed by a {@link CpuProverBackend} underneath. {@link #events} records what happened, in order.
 */
public final class FaultyGpuBackend extends DeviceBackendDouble {

    @FunctionalInterface
    interface Hook {
        void run() throws InterruptedException;
    }

    private final CpuProverBackend cpu = new CpuProverBackend();
    public final List<String> events = new CopyOnWriteArrayList<>();
    /** Opens that fail before one succeeds. */
    public final AtomicInteger failingOpens = new AtomicInteger();
    /** Prove starts that end with a sticky fault (breaking the context). */
    public final AtomicInteger stickyStarts = new AtomicInteger();
    /** Prove starts refused for lack of device memory. */
    public final AtomicInteger outOfMemoryStarts = new AtomicInteger();
    public final AtomicInteger proofsStarted = new AtomicInteger();
    volatile long keyBudgetBytes = Long.MAX_VALUE;
    volatile Hook beforeStart = () -> { };
    volatile Hook onReopen = () -> { };
    private final Set<ProvingKey> resident = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean open;
    private boolean broken;

    @Override
    public String name() {
        return "gpu";
    }

    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc) {
        synchronized (this) {
            openLazily();
            if (broken) {
                events.add("start on a broken context");
                throw new DeviceFaultException("GPU 0 (gpu0): CUDA_ERROR_ILLEGAL_ADDRESS (700)", null,
                        DeviceFaultKind.STICKY);
            }
        }
        if (key.byteSize() > keyBudgetBytes) {
            events.add("key over budget");
            throw new DeviceCapacityException("a key of " + key.byteSize() + " bytes exceeds the device key budget of "
                    + keyBudgetBytes + " bytes", null, false);
        }
        if (outOfMemoryStarts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            events.add("out of memory");
            throw new DeviceCapacityException("cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (2)", null, true);
        }
        try {
            beforeStart.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (stickyStarts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            synchronized (this) {
                broken = true;
            }
            events.add("sticky fault");
            throw new DeviceFaultException("GPU 0 (gpu0): cuLaunchKernel failed: CUDA_ERROR_ILLEGAL_ADDRESS (700)",
                    null, DeviceFaultKind.STICKY);
        }
        synchronized (this) {
            resident.add(key);
        }
        proofsStarted.incrementAndGet();
        events.add("proved");
        return cpu.proveStart(key, witness, abc);
    }

    private void openLazily() {
        if (open) {
            return;
        }
        if (failingOpens.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            events.add("open failed");
            throw new DeviceFaultException("GPU 0 (gpu0) could not be opened: cuDevicePrimaryCtxRetain(0) failed: "
                    + "CUDA_ERROR_OUT_OF_MEMORY (2)", null, DeviceFaultKind.UNUSABLE);
        }
        open = true;
        events.add("opened");
    }

    @Override
    public Proof proveFinish(PendingProof pending) {
        return cpu.proveFinish(pending);
    }

    /** Closes the broken context and opens a new one, as the GPU backend's reopen does. */
    @Override
    public void reopen() {
        try {
            onReopen.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            events.add("reopen");
            resident.clear();
            broken = false;
            open = false;
            openLazily();
        }
    }

    @Override
    public synchronized boolean evict(ProvingKey key) {
        return resident.remove(key);
    }

    public synchronized int residentKeys() {
        return resident.size();
    }

    synchronized boolean isResident(ProvingKey key) {
        return resident.contains(key);
    }
}
