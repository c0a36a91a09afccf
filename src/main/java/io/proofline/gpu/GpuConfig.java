package io.proofline.gpu;

import io.proofline.gpu.internal.MsmShape;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The GPU backend's settings, immutable and free of any configuration framework: the service binds them from
 * {@code proofline.gpu.*} ({@code io.proofline.service.config.GpuProperties}), the CLI from its flags ({@code --b2},
 * {@code --kernels}, {@code --msm-max-window}, {@code --gpu-memory-budget}); nothing in the backend reads a system
 * property or the environment.
 *
 * @param b2                    where ΣB2 (the G2 MSM) runs
 * @param msmMaxWindow          the widest Pippenger window of the MSMs (c = log₂n − 4, clamped to [4, this])
 * @param kernels               a directory holding the fatbins named by its {@code modules.list} (as
 *                              native-cuda/build.sh writes them) to load instead of those in the jar; empty: the jar's
 * @param deviceMemoryBudgetBytes device bytes per physical GPU, split evenly between its logical devices, half of each
 *                              share for resident keys; 0: the device's memory
 * @param abc                   where a = A·w, b = B·w, c = a∘b are evaluated for this backend's proofs
 */
public record GpuConfig(B2Placement b2, int msmMaxWindow, Optional<Path> kernels, long deviceMemoryBudgetBytes,
                        AbcPlacement abc) {

    /** Where a/b/c are evaluated. */
    public enum AbcPlacement {
        /**
         * On the device, in prove start, from the uploaded witness and the key's constraint rows resident beside its
         * points (counted in the key's device bytes): partitions for the GPU hold no host a/b/c.
         */
        DEVICE,
        /** On the host, in synthesis, into ABC buffers uploaded in prove start. */
        HOST
    }

    /** With a/b/c on the device. */
    public GpuConfig(B2Placement b2, int msmMaxWindow, Optional<Path> kernels, long deviceMemoryBudgetBytes) {
        this(b2, msmMaxWindow, kernels, deviceMemoryBudgetBytes, AbcPlacement.DEVICE);
    }

    /** Where ΣB2 runs. */
    public enum B2Placement {
        /** On the device when the key with its B2 section fits the device key budget, else on CPU threads. */
        AUTO,
        /** Always on the device, in prove start (B2 resident beside the G1 sections). */
        DEVICE,
        /** Always on CPU threads, in prove finish. */
        HOST;

        /** Whether ΣB2 of a key whose resident copy with B2 takes {@code keyWithB2Bytes} runs on the device. */
        public boolean onDevice(long keyWithB2Bytes, long keyBudgetBytes) {
            return switch (this) {
                case AUTO -> keyWithB2Bytes <= keyBudgetBytes;
                case DEVICE -> true;
                case HOST -> false;
            };
        }
    }

    /**
     * The defaults: ΣB2 placed automatically, the measured window cap, the jar's kernels, the device's memory, a/b/c on
     * the device.
     */
    public static final GpuConfig DEFAULTS =
            new GpuConfig(B2Placement.AUTO, MsmShape.DEFAULT.maxWindow(), Optional.empty(), 0, AbcPlacement.DEVICE);

    public GpuConfig {
        if (b2 == null || kernels == null || abc == null) {
            throw new IllegalArgumentException("b2 and a/b/c placements and kernels must be given (Optional.empty() "
                    + "for none)");
        }
        if (msmMaxWindow < MsmShape.MIN_WINDOW || msmMaxWindow > MsmShape.MAX_WINDOW) {
            throw new IllegalArgumentException("msm-max-window must be between " + MsmShape.MIN_WINDOW + " and "
                    + MsmShape.MAX_WINDOW + ", got " + msmMaxWindow);
        }
        if (deviceMemoryBudgetBytes < 0) {
            throw new IllegalArgumentException("device memory budget of " + deviceMemoryBudgetBytes + " bytes");
        }
    }

    /** The MSM shape with this configuration's window cap. */
    public MsmShape msmShape() {
        return MsmShape.DEFAULT.withMaxWindow(msmMaxWindow);
    }
}
