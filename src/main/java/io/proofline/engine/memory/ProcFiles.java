package io.proofline.engine.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/** Reads the Linux files that tell a process's memory and the host's; empty or {@code -1} elsewhere. */
final class ProcFiles {

    private static final Path SELF_STATUS = Path.of("/proc/self/status");
    private static final Path MEMINFO = Path.of("/proc/meminfo");
    private static final long KIB = 1024;

    private ProcFiles() {
    }

    /** {@code VmRSS} and {@code VmHWM} in bytes, {@code -1} each when unknown. */
    public static long[] rssAndPeak() {
        List<String> lines = readLines(SELF_STATUS);
        return new long[] {kibField(lines, "VmRSS:"), kibField(lines, "VmHWM:")};
    }

    /** The host's {@code MemTotal} in bytes. */
    public static OptionalLong memTotal() {
        long total = kibField(readLines(MEMINFO), "MemTotal:");
        return total > 0 ? OptionalLong.of(total) : OptionalLong.empty();
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

}
