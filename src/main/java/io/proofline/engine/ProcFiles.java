package io.proofline.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/** Reads the Linux files that tell a process's memory and its limit; empty or {@code -1} elsewhere. */
final class ProcFiles {

    private static final Path SELF_STATUS = Path.of("/proc/self/status");
    private static final Path MEMINFO = Path.of("/proc/meminfo");
    private static final Path CGROUP_V2_MAX = Path.of("/sys/fs/cgroup/memory.max");
    private static final Path CGROUP_V1_LIMIT = Path.of("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    /** cgroup v1 reports "no limit" as a huge page-aligned number (LONG_MAX rounded down to a page). */
    private static final long CGROUP_V1_UNLIMITED_ABOVE = 1L << 60;
    private static final long KIB = 1024;

    private ProcFiles() {
    }

    /** {@code VmRSS} and {@code VmHWM} in bytes, {@code -1} each when unknown. */
    public static long[] rssAndPeak() {
        List<String> lines = readLines(SELF_STATUS);
        return new long[] {kibField(lines, "VmRSS:"), kibField(lines, "VmHWM:")};
    }

    /**
     * The memory this process may use: the cgroup (container) limit if there is one, else the host's
     * {@code MemTotal}.
     */
    public static OptionalLong memoryLimit() {
        OptionalLong cgroup = cgroupLimit(readFirst(CGROUP_V2_MAX), readFirst(CGROUP_V1_LIMIT));
        if (cgroup.isPresent()) {
            return cgroup;
        }
        long total = kibField(readLines(MEMINFO), "MemTotal:");
        return total > 0 ? OptionalLong.of(total) : OptionalLong.empty();
    }

    /** The cgroup limit from the contents of the v2 and v1 files (either may be null); package-visible for tests. */
    static OptionalLong cgroupLimit(String v2, String v1) {
        if (v2 != null && !v2.isBlank() && !v2.strip().equals("max")) {
            return parse(v2.strip());
        }
        if (v1 != null && !v1.isBlank()) {
            OptionalLong limit = parse(v1.strip());
            if (limit.isPresent() && limit.getAsLong() < CGROUP_V1_UNLIMITED_ABOVE) {
                return limit;
            }
        }
        return OptionalLong.empty();
    }

    /** A {@code Name:   123 kB} field of a proc file, in bytes; {@code -1} when absent. */
    static long kibField(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name)) {
                String[] parts = line.substring(name.length()).strip().split("\\s+");
                OptionalLong kib = parse(parts[0]);
                return kib.isPresent() ? kib.getAsLong() * KIB : -1;
            }
        }
        return -1;
    }

    private static OptionalLong parse(String s) {
        try {
            return OptionalLong.of(Long.parseLong(s));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }

    private static String readFirst(Path file) {
        List<String> lines = readLines(file);
        return lines.isEmpty() ? null : lines.getFirst();
    }
}
