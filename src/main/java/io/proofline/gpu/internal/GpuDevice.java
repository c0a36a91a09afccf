package io.proofline.gpu.internal;

/** A CUDA device as the driver describes it. */
public record GpuDevice(int ordinal, String name, int major, int minor, long totalMemoryBytes, int multiprocessors) {

    /** e.g. {@code sm_90}. */
    public String architecture() {
        return "sm_" + major + minor;
    }

    @Override
    public String toString() {
        return "GPU " + ordinal + ": " + name + " (" + architecture() + ", " + multiprocessors + " SMs, "
                + (totalMemoryBytes >> 20) + " MiB)";
    }
}
