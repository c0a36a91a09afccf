package io.proofline.cli;

import io.proofline.gpu.GpuProverBackend;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.ProverBackends;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The backend of {@code prove} and {@code fullprove}: {@code --backend auto} (the default) takes the GPU backend
 * where a CUDA device and the kernels are usable and the CPU backend otherwise, and says which and why in one line;
 * {@code --backend cpu|gpu} forces one. The probe is the GPU backend's own
 * {@link DeviceProverBackend#unavailableReason()}: it opens the device and loads the kernels, which a GPU proof needs
 * anyway, so a usable GPU is not opened twice.
 *
 * @param backend the chosen backend
 * @param note    for {@code auto}, the line that says which backend and why; empty when one was forced
 */
record BackendChoice(ProverBackend backend, Optional<String> note) {

    static final String AUTO = "auto";
    static final String OPTION = "--backend";

    /** For usage lines. */
    static final String USAGE = "[--backend auto|" + String.join("|", ProverBackends.names()) + "]";

    /**
     * Fails on an unknown {@code --backend} or bad GPU flags, before any file is read (the choice itself waits until
     * the inputs are read: a malformed file is reported without probing a device).
     */
    static void check(Map<String, String> opts) throws UsageException {
        GpuOptions.config(opts);
        String name = opts.getOrDefault(OPTION, AUTO);
        if (!name.equals(AUTO) && !ProverBackends.names().contains(name)) {
            throw unknown(name);
        }
    }

    /** The backend {@code --backend} in {@code opts} names (auto when absent); the GPU one with the GPU flags. */
    static BackendChoice of(Map<String, String> opts) throws UsageException {
        check(opts);
        return choose(opts.getOrDefault(OPTION, AUTO), () -> {
            try {
                return new GpuProverBackend(GpuOptions.config(opts));
            } catch (UsageException e) {
                throw new IllegalStateException(e); // checked above
            }
        });
    }

    /** The choice for {@code name}, {@code gpu} supplying the GPU backend (a test double in tests). */
    static BackendChoice choose(String name, Supplier<? extends DeviceProverBackend> gpu) throws UsageException {
        if (name.equals(AUTO)) {
            DeviceProverBackend candidate = gpu.get();
            Optional<String> unavailable = candidate.unavailableReason();
            if (unavailable.isEmpty()) {
                return new BackendChoice(candidate, Optional.of("backend gpu (auto: a CUDA device and the kernels"
                        + " are usable; --backend cpu to prove on the CPU)"));
            }
            return new BackendChoice(ProverBackends.byName("cpu").orElseThrow(), Optional.of("backend cpu (auto: "
                    + unavailable.get() + ")"));
        }
        if (name.equals(GpuProverBackend.NAME)) {
            return new BackendChoice(gpu.get(), Optional.empty());
        }
        return ProverBackends.byName(name).map(b -> new BackendChoice(b, Optional.empty()))
                .orElseThrow(() -> unknown(name));
    }

    private static UsageException unknown(String name) {
        return new UsageException("unknown backend '" + name + "' (available: " + AUTO + ", "
                + String.join(", ", ProverBackends.names()) + ")");
    }
}
