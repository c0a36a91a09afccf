package io.proofline.engine.memory;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SequencedMap;

/**
 * The part of the memory limit the budget does not govern, as named figures: each is a cap the JVM enforces or a
 * declared bound, so their sum is the most this part may hold. The budget is the limit less this sum
 * ({@link MemoryPlan}). The witness calculators' linear memory (Chicory's) lives on the JVM heap: the part of the max
 * heap declared for it ({@link WitnessHeapShare}: instances that may run at once × each one's cap) is a figure of
 * its own, so is the part the engine keeps of finished jobs ({@link FinishedJobsHeap}), and the heap's other figure
 * is the rest (the service's own objects), so that the figures still add up to the fixed part.
 *
 * @param maxHeapBytes      the JVM heap's maximum ({@code -Xmx})
 * @param metaspaceBytes    {@code MaxMetaspaceSize}, or {@link HeapRule#METASPACE_BYTES} where it is not capped
 * @param codeCacheBytes    {@code ReservedCodeCacheSize}
 * @param threadStacksBytes the most threads the process is expected to run × the stack size
 * @param cudaContextBytes  host memory of the CUDA contexts (driver, module images, pinned staging), per GPU
 * @param marginBytes       what the rest of the native side takes: GC structures, malloc arenas, JIT arenas,
 *                          native libraries, mapped class data
 * @param witnessCalculatorBytes the part of {@code maxHeapBytes} the witness calculators' linear memory may fill
 * @param finishedJobsBytes the part of {@code maxHeapBytes} the engine may keep of finished jobs
 *                          ({@link FinishedJobsHeap}); 0 where not declared (tests, the CLI)
 */
public record FixedMemory(long maxHeapBytes, long metaspaceBytes, long codeCacheBytes, long threadStacksBytes,
                          long cudaContextBytes, long marginBytes, long witnessCalculatorBytes,
                          long finishedJobsBytes) {

    private static final long MIB = 1L << 20;
    /** The host memory one CUDA context holds (driver state, loaded kernels, staging). */
    public static final long CUDA_CONTEXT_HOST_BYTES = 512 * MIB;
    public static final long DEFAULT_MARGIN_BYTES = 256 * MIB;
    public static final int DEFAULT_MAX_THREADS = 200;
    /** A JVM flag above this is "not capped" (the JVM's defaults for an uncapped metaspace are near 2^64). */
    private static final long UNCAPPED_ABOVE = 1L << 40;

    public FixedMemory {
        if (maxHeapBytes < 0 || metaspaceBytes < 0 || codeCacheBytes < 0 || threadStacksBytes < 0
                || cudaContextBytes < 0 || marginBytes < 0 || witnessCalculatorBytes < 0 || finishedJobsBytes < 0) {
            throw new IllegalArgumentException("negative fixed memory figure");
        }
        if (witnessCalculatorBytes > maxHeapBytes) {
            throw new IllegalArgumentException("the witness calculators' " + witnessCalculatorBytes
                    + " B do not fit the max heap of " + maxHeapBytes + " B");
        }
        if (witnessCalculatorBytes + finishedJobsBytes > maxHeapBytes) {
            throw new IllegalArgumentException("the witness calculators' " + witnessCalculatorBytes
                    + " B and the finished jobs' " + finishedJobsBytes + " B do not fit the max heap of "
                    + maxHeapBytes + " B");
        }
    }

    /** Figures without a declared finished-jobs share. */
    public FixedMemory(long maxHeapBytes, long metaspaceBytes, long codeCacheBytes, long threadStacksBytes,
                       long cudaContextBytes, long marginBytes, long witnessCalculatorBytes) {
        this(maxHeapBytes, metaspaceBytes, codeCacheBytes, threadStacksBytes, cudaContextBytes, marginBytes,
                witnessCalculatorBytes, 0);
    }

    /** Figures without a declared witness-calculator share (tests, the CLI). */
    public FixedMemory(long maxHeapBytes, long metaspaceBytes, long codeCacheBytes, long threadStacksBytes,
                       long cudaContextBytes, long marginBytes) {
        this(maxHeapBytes, metaspaceBytes, codeCacheBytes, threadStacksBytes, cudaContextBytes, marginBytes, 0, 0);
    }

    /**
     * The figures of this JVM: its heap maximum and flags as started, {@code maxThreads} stacks,
     * {@code cudaContexts} GPU contexts (0 without a GPU backend) and {@code marginBytes}.
     */
    public static FixedMemory ofThisJvm(int maxThreads, int cudaContexts, long marginBytes) {
        return ofThisJvm(maxThreads, cudaContexts, marginBytes, 0);
    }

    /** As above, with {@code witnessCalculatorBytes} of the heap declared for the witness calculators. */
    public static FixedMemory ofThisJvm(int maxThreads, int cudaContexts, long marginBytes,
                                        long witnessCalculatorBytes) {
        return ofThisJvm(maxThreads, cudaContexts, marginBytes, witnessCalculatorBytes, 0);
    }

    /** As above, with {@code finishedJobsBytes} of the heap declared for the finished jobs the engine keeps. */
    public static FixedMemory ofThisJvm(int maxThreads, int cudaContexts, long marginBytes,
                                        long witnessCalculatorBytes, long finishedJobsBytes) {
        long stack = flag("ThreadStackSize", HeapRule.THREAD_STACK_BYTES / 1024) * 1024;
        return new FixedMemory(Runtime.getRuntime().maxMemory(),
                flag("MaxMetaspaceSize", HeapRule.METASPACE_BYTES),
                flag("ReservedCodeCacheSize", HeapRule.CODE_CACHE_BYTES),
                Math.multiplyExact((long) maxThreads, stack),
                Math.multiplyExact((long) cudaContexts, CUDA_CONTEXT_HOST_BYTES),
                marginBytes, witnessCalculatorBytes, finishedJobsBytes);
    }

    /** The witness calculators' share of the max heap for {@code synthesisWorkers} and a configured cap. */
    public static WitnessHeapShare witnessShareOfThisJvm(int synthesisWorkers, long configuredCapBytes) {
        return witnessShareOfThisJvm(synthesisWorkers, 1, configuredCapBytes);
    }

    /** As above, with {@code registrations} registrations that may load an uploaded wasm at once. */
    public static WitnessHeapShare witnessShareOfThisJvm(int synthesisWorkers, int registrations,
                                                         long configuredCapBytes) {
        return WitnessHeapShare.of(Runtime.getRuntime().maxMemory(), synthesisWorkers, registrations,
                configuredCapBytes);
    }

    /** The sum of the figures. */
    public long totalBytes() {
        return maxHeapBytes + metaspaceBytes + codeCacheBytes + threadStacksBytes + cudaContextBytes + marginBytes;
    }

    /** The figures other than the heap: what RSS holds besides heap and tracked buffers when all is accounted for. */
    public long nonHeapBytes() {
        return totalBytes() - maxHeapBytes;
    }

    /** The figures by name, in a stable order (console, log, {@code /api/v1/pipeline}). */
    public SequencedMap<String, Long> figures() {
        SequencedMap<String, Long> m = new LinkedHashMap<>();
        if (witnessCalculatorBytes > 0 || finishedJobsBytes > 0) {
            if (witnessCalculatorBytes > 0) {
                m.put("witness calculators", witnessCalculatorBytes);
            }
            if (finishedJobsBytes > 0) {
                m.put("finished jobs", finishedJobsBytes);
            }
            m.put("heap", maxHeapBytes - witnessCalculatorBytes - finishedJobsBytes);
        } else {
            m.put("max heap", maxHeapBytes);
        }
        m.put("metaspace", metaspaceBytes);
        m.put("code cache", codeCacheBytes);
        m.put("thread stacks", threadStacksBytes);
        m.put("CUDA contexts", cudaContextBytes);
        m.put("margin", marginBytes);
        return m;
    }

    /** One line for the start-up log. */
    public String describe() {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, Long> e : figures().entrySet()) {
            s.append(s.isEmpty() ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue() / MIB).append(" MiB");
        }
        return s.toString();
    }

    /** A numeric JVM flag in its own unit, {@code fallback} where it cannot be read or is not capped. */
    private static long flag(String name, long fallback) {
        try {
            HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long value = Long.parseUnsignedLong(bean.getVMOption(name).getValue());
            return value <= 0 || value > UNCAPPED_ABOVE ? fallback : value;
        } catch (RuntimeException e) {
            return fallback;
        }
    }
}
