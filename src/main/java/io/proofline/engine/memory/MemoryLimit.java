package io.proofline.engine.memory;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The most resident memory the process may reach, and where that figure came from. The container's (cgroup's)
 * limit is the hard one, since the kernel kills the process past it; a configured limit below it narrows it; without
 * either the host's {@code MemTotal} is the limit.
 *
 * @param bytes  the limit
 * @param source where it came from
 */
public record MemoryLimit(long bytes, Source source) {

    /** Used only where nothing can be read (no {@code /proc}): enough for a small development circuit. */
    public static final long FALLBACK_BYTES = 8L << 30;

    /** Where a limit came from. */
    public enum Source {
        /** The memory cgroup the process runs in (a container's limit). */
        CGROUP,
        /** {@code proofline.memory.limit}. */
        CONFIGURED,
        /** The host's {@code MemTotal}. */
        MEM_TOTAL,
        /** Nothing could be read: {@link #FALLBACK_BYTES}. */
        FALLBACK
    }

    public MemoryLimit {
        Objects.requireNonNull(source, "source");
        if (bytes <= 0) {
            throw new IllegalArgumentException("memory limit must be positive: " + bytes);
        }
    }

    /** This process's limit: the cgroup's, narrowed by {@code configured} where that is smaller, else MemTotal. */
    public static MemoryLimit detect(OptionalLong configured) {
        return choose(CgroupMemoryLimit.detect(), configured, ProcFiles.memTotal());
    }

    /** The choice, from the figures read (package-visible for tests). */
    static MemoryLimit choose(OptionalLong cgroup, OptionalLong configured, OptionalLong memTotal) {
        if (cgroup.isPresent() && (configured.isEmpty() || cgroup.getAsLong() <= configured.getAsLong())) {
            return new MemoryLimit(cgroup.getAsLong(), Source.CGROUP);
        }
        if (configured.isPresent()) {
            return new MemoryLimit(configured.getAsLong(), Source.CONFIGURED);
        }
        if (memTotal.isPresent()) {
            return new MemoryLimit(memTotal.getAsLong(), Source.MEM_TOTAL);
        }
        return new MemoryLimit(FALLBACK_BYTES, Source.FALLBACK);
    }
}
