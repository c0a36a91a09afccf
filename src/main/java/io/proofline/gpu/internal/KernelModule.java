package io.proofline.gpu.internal;

import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuUnavailableException;
import jcuda.Pointer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

import jcuda.driver.CUresult;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

/**
 * The CUDA kernels, built from native-cuda/ by nvcc into several fatbins (one per translation unit, compiled in
 * parallel) that {@code modules.list} names, carried in the jar under {@code /native/} or read from a directory
 * ({@link GpuConfig#kernels()}); each is loaded into the context with {@code cuModuleLoadData}, the driver picking the
 * SASS for the device or JIT-compiling the PTX. A kernel is looked up by name in whichever module holds it.
 */
public final class KernelModule implements AutoCloseable {

    /** Classpath folder of the fatbins and their list. */
    public static final String RESOURCE_FOLDER = "/native/";
    /** The list of fatbin file names, one a line, in a kernels folder. */
    public static final String MODULES_LIST = "modules.list";

    private final List<CUmodule> modules = new ArrayList<>();
    private final Map<String, CUfunction> functions = new ConcurrentHashMap<>();
    private final Tunables tunables;
    private boolean unloaded;

    private KernelModule(Map<String, byte[]> images) {
        try {
            for (Map.Entry<String, byte[]> image : images.entrySet()) {
                CUmodule module = new CUmodule();
                check(cuModuleLoadData(module, image.getValue()), "cuModuleLoadData(" + image.getKey() + ", "
                        + image.getValue().length + " bytes)");
                modules.add(module);
            }
            this.tunables = readTunables();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Loads the jar's kernels into the context current on this thread ({@code context} is made current first). */
    public static KernelModule load(GpuContext context) {
        return load(context, Optional.empty());
    }

    /** Loads the kernels of {@code folder} (else the jar's) into {@code context}, made current first. */
    public static KernelModule load(GpuContext context, Optional<Path> folder) {
        Map<String, byte[]> images = fatbins(folder);
        context.makeCurrent();
        return new KernelModule(images);
    }

    /**
     * The fatbins by file name, in the order of {@code modules.list}: from {@code folder} when given (kernels built on
     * the GPU machine itself), else from the classpath; {@link GpuUnavailableException} when the build had no nvcc or
     * a listed file cannot be read.
     */
    public static Map<String, byte[]> fatbins(Optional<Path> folder) {
        Map<String, byte[]> images = new LinkedHashMap<>();
        if (folder.isPresent()) {
            Path dir = folder.get();
            try {
                for (String name : names(Files.readString(dir.resolve(MODULES_LIST)), dir.toString())) {
                    images.put(name, terminated(Files.readAllBytes(dir.resolve(name))));
                }
            } catch (IOException e) {
                throw new GpuUnavailableException("cannot read the kernels in " + dir + ": " + e.getMessage(), e);
            }
            return images;
        }
        byte[] list = resource(RESOURCE_FOLDER + MODULES_LIST);
        if (list == null) {
            throw new GpuUnavailableException("no kernels were built (" + RESOURCE_FOLDER + MODULES_LIST
                    + " is not on the classpath: build with nvcc on the PATH)");
        }
        for (String name : names(new String(list, StandardCharsets.UTF_8), RESOURCE_FOLDER)) {
            byte[] image = resource(RESOURCE_FOLDER + name);
            if (image == null) {
                throw new GpuUnavailableException(RESOURCE_FOLDER + MODULES_LIST + " names " + name
                        + ", which is not on the classpath");
            }
            images.put(name, terminated(image));
        }
        return images;
    }

    private static List<String> names(String list, String where) {
        List<String> names = list.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (names.isEmpty()) {
            throw new GpuUnavailableException(MODULES_LIST + " in " + where + " names no fatbin");
        }
        return names;
    }

    private static byte[] resource(String path) {
        try (InputStream in = KernelModule.class.getResourceAsStream(path)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new GpuUnavailableException("cannot read " + path + ": " + e.getMessage(), e);
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

    /** The kernel {@code name} from the first module that holds it. */
    public CUfunction function(String name) {
        return functions.computeIfAbsent(name, n -> {
            int result = CUresult.CUDA_ERROR_NOT_FOUND;
            for (CUmodule module : modules) {
                CUfunction f = new CUfunction();
                result = cuModuleGetFunction(f, module, n);
                if (result == CUresult.CUDA_SUCCESS) {
                    return f;
                }
                if (result != CUresult.CUDA_ERROR_NOT_FOUND) {
                    break;
                }
            }
            throw new CudaException(result, "cuModuleGetFunction(" + n + ") in " + modules.size() + " modules");
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
            for (CUmodule module : modules) {
                check(cuModuleUnload(module), "cuModuleUnload");
            }
        }
    }
}
