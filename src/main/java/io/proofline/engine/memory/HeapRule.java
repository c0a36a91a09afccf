package io.proofline.engine.memory;

import java.util.List;

/**
 * The one rule that sizes the JVM from the memory limit, used by {@code proofline heap-opts} and through it by the
 * Docker entrypoint, the README's run command and the Helm chart. The heap is small because large data never lives
 * on it (partitions, keys and caches are off-heap and reserved against the budget): a quarter of the limit, at least
 * {@link #MIN_HEAP_BYTES} for the service's own objects and at most {@link #MAX_HEAP_BYTES}. Metaspace, code cache and
 * thread stacks get explicit caps so that the fixed part ({@link FixedMemory}) is a sum of declared figures.
 */
public final class HeapRule {

    private static final long MIB = 1L << 20;
    public static final long MIN_HEAP_BYTES = 256 * MIB;
    public static final long MAX_HEAP_BYTES = 1024 * MIB;
    public static final long METASPACE_BYTES = 256 * MIB;
    public static final long CODE_CACHE_BYTES = 128 * MIB;
    /** Half the JVM's default: the service has no deep recursion, and the stacks are part of the fixed part. */
    public static final long THREAD_STACK_BYTES = 512 * 1024;

    private HeapRule() {
    }

    /** The maximum heap for a process limited to {@code limitBytes}, in whole MiB. */
    public static long maxHeapBytes(long limitBytes) {
        long quarter = Math.clamp(limitBytes / 4, MIN_HEAP_BYTES, MAX_HEAP_BYTES);
        return quarter / MIB * MIB;
    }

    /** The JVM options for a process limited to {@code limitBytes}. */
    public static List<String> jvmOptions(long limitBytes) {
        return List.of(
                "-Xmx" + maxHeapBytes(limitBytes) / MIB + "m",
                "-XX:MaxMetaspaceSize=" + METASPACE_BYTES / MIB + "m",
                "-XX:ReservedCodeCacheSize=" + CODE_CACHE_BYTES / MIB + "m",
                "-Xss" + THREAD_STACK_BYTES / 1024 + "k",
                "-XX:+ExitOnOutOfMemoryError");
    }
}
