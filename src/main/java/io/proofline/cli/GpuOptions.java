package io.proofline.cli;

import io.proofline.gpu.GpuConfig;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The GPU backend's flags, shared by every command that runs it ({@code prove}, {@code fullprove},
 * {@code gpu-selftest}, and the lab's {@code bench gpu}, {@code bench pipeline}, {@code gpu-bench}), turned into the
 * same {@link GpuConfig} the service binds from {@code proofline.gpu.*}: {@code --b2 auto|device|host},
 * {@code --abc device|host}, {@code --kernels DIR}, {@code --msm-max-window N}, {@code --gpu-memory-budget SIZE}.
 */
public final class GpuOptions {

    public static final String B2 = "--b2";
    public static final String ABC = "--abc";
    public static final String KERNELS = "--kernels";
    public static final String MSM_MAX_WINDOW = "--msm-max-window";
    public static final String MEMORY_BUDGET = "--gpu-memory-budget";
    private static final String[] NAMES = {B2, ABC, KERNELS, MSM_MAX_WINDOW, MEMORY_BUDGET};

    /** For usage lines. */
    public static final String USAGE = "[--b2 auto|device|host] [--abc device|host] [--kernels DIR]"
            + " [--msm-max-window N] [--gpu-memory-budget SIZE]";

    private GpuOptions() {
    }

    /** {@code names} and the GPU flags, for {@link Options#parse}. */
    public static String[] with(String... names) {
        return Stream.concat(Arrays.stream(names), Arrays.stream(NAMES)).toArray(String[]::new);
    }

    /** Whether {@code name} is one of the GPU flags. */
    public static boolean isGpuOption(String name) {
        return Arrays.asList(NAMES).contains(name);
    }

    /** The configuration the flags in {@code opts} describe; the defaults for those absent. */
    public static GpuConfig config(Map<String, String> opts) throws UsageException {
        GpuConfig defaults = GpuConfig.DEFAULTS;
        GpuConfig.B2Placement b2 = defaults.b2();
        if (opts.containsKey(B2)) {
            try {
                b2 = GpuConfig.B2Placement.valueOf(opts.get(B2).strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UsageException(B2 + " must be auto, device or host, got '" + opts.get(B2) + "'");
            }
        }
        GpuConfig.AbcPlacement abc = defaults.abc();
        if (opts.containsKey(ABC)) {
            try {
                abc = GpuConfig.AbcPlacement.valueOf(opts.get(ABC).strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UsageException(ABC + " must be device or host, got '" + opts.get(ABC) + "'");
            }
        }
        Optional<Path> kernels = Optional.ofNullable(opts.get(KERNELS)).map(Path::of);
        int maxWindow = Options.intValue(opts, MSM_MAX_WINDOW, defaults.msmMaxWindow());
        long budget = Options.bytes(opts, MEMORY_BUDGET, defaults.deviceMemoryBudgetBytes());
        try {
            return new GpuConfig(b2, maxWindow, kernels, budget, abc);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
