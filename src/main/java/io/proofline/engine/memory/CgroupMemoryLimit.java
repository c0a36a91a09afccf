package io.proofline.engine.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The memory limit of the cgroup this process runs in, found the way the JVM finds it: the process's own cgroup
 * from {@code /proc/self/cgroup}, the controller's mount from {@code /proc/self/mountinfo}, then the limit file
 * ({@code memory.limit_in_bytes} on cgroup v1, {@code memory.max} on v2) of that cgroup and of every ancestor up to
 * the mount, the smallest one winning (a parent's limit binds its children too, and a container often sees its
 * limit one level above the cgroup it is placed in). Reading {@code /sys/fs/cgroup/memory.max} alone is wrong
 * wherever the process is not at the root of the hierarchy, as on a host or in a test's cgroup.
 */
public final class CgroupMemoryLimit {

    /** cgroup v1 reports "no limit" as a huge page-aligned number (LONG_MAX rounded down to a page). */
    static final long V1_UNLIMITED_ABOVE = 1L << 60;

    private CgroupMemoryLimit() {
    }

    /** This process's cgroup memory limit; empty when there is none or it cannot be read. */
    public static OptionalLong detect() {
        return read(Path.of("/"));
    }

    /**
     * The limit as seen under {@code root} (the file system root; a temporary tree in tests): its
     * {@code proc/self/cgroup}, {@code proc/self/mountinfo} and the mount points they name, resolved under it.
     */
    static OptionalLong read(Path root) {
        List<String> cgroups = lines(root.resolve("proc/self/cgroup"));
        List<String> mounts = lines(root.resolve("proc/self/mountinfo"));
        Optional<Path> v1 = directory(root, cgroups, mounts, false);
        if (v1.isPresent()) {
            return smallestUpTo(v1.get(), root, mounts, "memory.limit_in_bytes", false);
        }
        return directory(root, cgroups, mounts, true)
                .map(dir -> smallestUpTo(dir, root, mounts, "memory.max", true))
                .orElse(OptionalLong.empty());
    }

    /** The directory of this process's memory cgroup: v1's {@code memory} controller, or the v2 unified group. */
    private static Optional<Path> directory(Path root, List<String> cgroups, List<String> mounts, boolean v2) {
        String cgroupPath = null;
        for (String line : cgroups) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            boolean match = v2 ? f[0].equals("0") && f[1].isEmpty() : List.of(f[1].split(",")).contains("memory");
            if (match) {
                cgroupPath = f[2];
                break;
            }
        }
        if (cgroupPath == null) {
            return Optional.empty();
        }
        for (String line : mounts) {
            Mount m = Mount.parse(line);
            if (m == null || !(v2 ? m.fsType.equals("cgroup2") : m.fsType.equals("cgroup") && m.hasOption("memory"))) {
                continue;
            }
            Path mountPoint = under(root, m.mountPoint);
            // As the JVM: the mount's root is "/" (host view), equal to the cgroup (a container's namespace), or a
            // prefix of it.
            if (m.root.equals("/")) {
                return Optional.of(under(mountPoint, cgroupPath));
            }
            if (m.root.equals(cgroupPath)) {
                return Optional.of(mountPoint);
            }
            if (cgroupPath.startsWith(m.root + "/")) {
                return Optional.of(under(mountPoint, cgroupPath.substring(m.root.length())));
            }
            return Optional.of(mountPoint);
        }
        return Optional.empty();
    }

    private static OptionalLong smallestUpTo(Path dir, Path root, List<String> mounts, String file, boolean v2) {
        Path top = mountPointOf(dir, root, mounts);
        long smallest = Long.MAX_VALUE;
        for (Path d = dir; d != null && d.startsWith(top); d = d.getParent()) {
            OptionalLong limit = parseLimit(firstLine(d.resolve(file)), v2);
            if (limit.isPresent()) {
                smallest = Math.min(smallest, limit.getAsLong());
            }
            if (d.equals(top)) {
                break;
            }
        }
        return smallest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(smallest);
    }

    private static Path mountPointOf(Path dir, Path root, List<String> mounts) {
        Path best = dir;
        int depth = -1;
        for (String line : mounts) {
            Mount m = Mount.parse(line);
            if (m != null) {
                Path p = under(root, m.mountPoint);
                if (dir.startsWith(p) && p.getNameCount() > depth) {
                    best = p;
                    depth = p.getNameCount();
                }
            }
        }
        return best;
    }

    /** A limit file's content: a number of bytes, or v2's {@code max} / v1's huge number for none. */
    static OptionalLong parseLimit(String text, boolean v2) {
        if (text == null || text.isBlank() || (v2 && text.strip().equals("max"))) {
            return OptionalLong.empty();
        }
        try {
            long value = Long.parseLong(text.strip());
            return value > 0 && value < V1_UNLIMITED_ABOVE ? OptionalLong.of(value) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static Path under(Path base, String absolute) {
        String relative = absolute.replaceFirst("^/+", "");
        return relative.isEmpty() ? base : base.resolve(relative);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }

    private static String firstLine(Path file) {
        List<String> l = lines(file);
        return l.isEmpty() ? null : l.getFirst();
    }

    /** One line of {@code mountinfo}: {@code id parent dev root mountpoint opts [tags] - fstype source superopts}. */
    private record Mount(String root, String mountPoint, String fsType, String superOptions) {

        static Mount parse(String line) {
            String[] f = line.split(" ");
            int dash = List.of(f).indexOf("-");
            if (f.length < 5 || dash < 0 || dash + 3 > f.length) {
                return null;
            }
            return new Mount(f[3], f[4], f[dash + 1], dash + 3 < f.length ? f[dash + 3] : "");
        }

        boolean hasOption(String option) {
            return List.of(superOptions.split(",")).contains(option);
        }
    }
}
