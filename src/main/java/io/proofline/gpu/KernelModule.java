package io.proofline.gpu;

import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.proofline.gpu.CudaException.check;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

/**
 * The kernels of {@code native/proofline.fatbin} (built from native-cuda/ by nvcc and carried in the jar), loaded
 * into a context with {@code cuModuleLoadData}; the driver picks the SASS for the device or JIT-compiles the PTX.
 */
public final class KernelModule implements AutoCloseable {

    /** Classpath location of the fatbin. */
    public static final String FATBIN_RESOURCE = "/native/proofline.fatbin";

    private final CUmodule module = new CUmodule();
    private final Map<String, CUfunction> functions = new ConcurrentHashMap<>();
    private final Tunables tunables;
    private boolean unloaded;

    private KernelModule(byte[] image) {
        check(cuModuleLoadData(module, image), "cuModuleLoadData(" + FATBIN_RESOURCE + ", " + image.length + " bytes)");
        this.tunables = readTunables();
    }

    /** Loads the fatbin into the context current on this thread ({@code context} is made current first). */
    public static KernelModule load(GpuContext context) {
        context.makeCurrent();
        return new KernelModule(fatbin());
    }

    /** System property (or, upper-cased with underscores, environment variable) naming a fatbin file to load instead. */
    public static final String FATBIN_OVERRIDE = "proofline.fatbin";

    /**
     * The fatbin bytes: from the file named by {@value #FATBIN_OVERRIDE} / {@code PROOFLINE_FATBIN} when set (kernels
     * built on the GPU machine itself), else from the classpath; {@link GpuUnavailableException} when the build had
     * no nvcc.
     */
    public static byte[] fatbin() {
        String override = System.getProperty(FATBIN_OVERRIDE, System.getenv("PROOFLINE_FATBIN"));
        if (override != null && !override.isBlank()) {
            try {
                return terminated(Files.readAllBytes(Path.of(override)));
            } catch (IOException e) {
                throw new GpuUnavailableException("cannot read the fatbin " + override + ": " + e.getMessage(), e);
            }
        }
        try (InputStream in = KernelModule.class.getResourceAsStream(FATBIN_RESOURCE)) {
            if (in == null) {
                throw new GpuUnavailableException("no kernels were built (" + FATBIN_RESOURCE
                        + " is not on the classpath: build with nvcc on the PATH)");
            }
            return terminated(in.readAllBytes());
        } catch (IOException e) {
            throw new GpuUnavailableException("cannot read " + FATBIN_RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /** cuModuleLoadData reads a NUL-terminated PTX string or a binary image; a trailing zero is harmless. */
    private static byte[] terminated(byte[] image) {
        byte[] out = new byte[image.length + 1];
        System.arraycopy(image, 0, out, 0, image.length);
        return out;
    }

    public Tunables tunables() {
        return tunables;
    }

    public CUfunction function(String name) {
        return functions.computeIfAbsent(name, n -> {
            CUfunction f = new CUfunction();
            check(cuModuleGetFunction(f, module, n), "cuModuleGetFunction(" + n + ")");
            return f;
        });
    }

    /**
     * Launches kernel {@code name} on a 1-D grid of {@code blocks × threads} on {@code stream}. Arguments follow
     * {@link KernelArgs}. Launch errors surface here; faults inside the kernel surface at the next synchronization.
     */
    public void launch(String name, long blocks, int threads, GpuStream stream, Object... args) {
        if (blocks <= 0 || blocks > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + ": grid of " + blocks + " blocks");
        }
        Pointer params = KernelArgs.of(args);
        check(cuLaunchKernel(function(name), (int) blocks, 1, 1, threads, 1, 1, 0,
                stream == null ? null : stream.handle(), params, null), "cuLaunchKernel(" + name + ")");
    }

    /** Blocks of {@code threads} needed to cover {@code n} items. */
    public static long blocksFor(long n, int threads) {
        return Math.max(1, (n + threads - 1) / threads);
    }

    private Tunables readTunables() {
        try (DeviceBuffer out = DeviceBuffer.allocate(4 * 8); GpuStream stream = new GpuStream()) {
            launch("proofline_tunables", 1, 1, stream, out);
            stream.synchronize();
            int[] words = new int[8];
            out.download(words);
            return Tunables.fromWords(words);
        }
    }

    @Override
    public void close() {
        if (!unloaded) {
            unloaded = true;
            check(cuModuleUnload(module), "cuModuleUnload");
        }
    }
}
