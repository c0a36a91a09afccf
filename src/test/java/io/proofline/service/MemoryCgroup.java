package io.proofline.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A memory cgroup of its own (root only), v1 under {@code /sys/fs/cgroup/memory} or v2 in the unified hierarchy, for
 * tests that run a process against a real memory limit: past it, the kernel's OOM killer ends the process (SIGKILL,
 * exit status 137). On v2 the group's swap is set to none, so that the limit binds as v1's does without memsw.
 * {@link #close()} kills what is still in the group (only processes this test put there) and removes the group.
 */
final class MemoryCgroup implements AutoCloseable {

    /** The cgroup version; each finds its own mount. */
    enum Version {
        V1, V2
    }

    static final Path V1_ROOT = Path.of("/sys/fs/cgroup/memory");

    private final Version version;
    private final Path dir;
    private final long limitBytes;

    private MemoryCgroup(Version version, Path dir, long limitBytes) {
        this.version = version;
        this.dir = dir;
        this.limitBytes = limitBytes;
    }

    /** Why a memory group of {@code version} cannot be made here, or empty where it can (probed). */
    static Optional<String> unavailableReason(Version version) {
        Optional<Path> root = root(version);
        if (root.isEmpty()) {
            return Optional.of(version == Version.V1
                    ? "the cgroup v1 memory controller is not mounted at " + V1_ROOT + " (a cgroup v2-only host)"
                    : "no cgroup v2 hierarchy is mounted (/proc/self/mountinfo names no cgroup2 file system)");
        }
        if (!Files.isWritable(root.get().resolve("cgroup.procs"))) {
            return Optional.of(root.get() + " is not writable (needs root and a writable /sys)");
        }
        if (version == Version.V2) {
            String controllers = readQuietly(root.get().resolve("cgroup.controllers"));
            if (!List.of(controllers.split("\\s+")).contains("memory")) {
                return Optional.of("the cgroup v2 hierarchy at " + root.get() + " has no memory controller "
                        + "(controllers: '" + controllers + "'): this kernel binds it to a cgroup v1 hierarchy, which "
                        + "has groups in use, so it cannot move to v2 here");
            }
        }
        try (MemoryCgroup probe = create(version, "proofline-probe-" + ProcessHandle.current().pid(), 256L << 20)) {
            // a process must be able to move itself in (a nested container may forbid it)
            Process moved = new ProcessBuilder("sh", "-c", "echo $$ > \"$0\"", probe.dir.resolve("cgroup.procs")
                    .toString()).redirectErrorStream(true).start();
            String said = new String(moved.getInputStream().readAllBytes()).trim();
            if (moved.waitFor() != 0) {
                return Optional.of("a process cannot join a memory cgroup under " + root.get() + ": " + said);
            }
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while probing the memory cgroup controller");
        } catch (IOException e) {
            return Optional.of("cannot create a memory cgroup under " + root.get() + ": " + e);
        }
    }

    /** Where groups of {@code version} are made: v1's memory mount, or the root of the v2 hierarchy. */
    private static Optional<Path> root(Version version) {
        if (version == Version.V1) {
            return Files.exists(V1_ROOT.resolve("memory.limit_in_bytes")) ? Optional.of(V1_ROOT) : Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] halves = line.split(" - ", 2);
                String[] fields = halves[0].split(" ");
                if (halves.length == 2 && halves[1].startsWith("cgroup2 ") && fields.length > 4) {
                    return Optional.of(Path.of(fields[4]));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * A new group named {@code name} limited to {@code limitBytes} of memory (page cache included; on v2 no swap).
     */
    static MemoryCgroup create(Version version, String name, long limitBytes) throws IOException {
        Path root = root(version).orElseThrow(() -> new IOException("no cgroup " + version + " hierarchy"));
        if (version == Version.V2 && !readQuietly(root.resolve("cgroup.subtree_control")).contains("memory")) {
            Files.writeString(root.resolve("cgroup.subtree_control"), "+memory");
        }
        Path dir = root.resolve(name);
        Files.createDirectory(dir);
        MemoryCgroup group = new MemoryCgroup(version, dir, limitBytes);
        try {
            Files.writeString(dir.resolve(group.limitFile()), Long.toString(limitBytes));
            if (version == Version.V2 && Files.exists(dir.resolve("memory.swap.max"))) {
                Files.writeString(dir.resolve("memory.swap.max"), "0");
            }
            long set = group.read(group.limitFile());
            if (set != limitBytes) {
                throw new IOException("the kernel set the limit to " + set + " instead of " + limitBytes);
            }
        } catch (IOException e) {
            group.close();
            throw e;
        }
        return group;
    }

    private String limitFile() {
        return version == Version.V1 ? "memory.limit_in_bytes" : "memory.max";
    }

    /**
     * Starts {@code command} inside the group: a shell writes its own pid into {@code cgroup.procs} and then
     * {@code exec}s the command, so the process is in the group from its first allocation and keeps the pid.
     */
    Process start(List<String> command, Path log) throws IOException {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                dir.resolve("cgroup.procs").toString()));
        wrapped.addAll(command);
        return new ProcessBuilder(wrapped).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    Version version() {
        return version;
    }

    long limitBytes() {
        return limitBytes;
    }

    /** The most memory the group held at once (v1 {@code memory.max_usage_in_bytes}, v2 {@code memory.peak}). */
    long maxUsageBytes() throws IOException {
        return read(version == Version.V1 ? "memory.max_usage_in_bytes" : "memory.peak");
    }

    /**
     * How often the group hit its limit (v1 {@code memory.failcnt}, v2 the {@code max} count of
     * {@code memory.events}); reclaimed page cache counts too.
     */
    long failCount() throws IOException {
        return version == Version.V1 ? read("memory.failcnt") : counter("memory.events", "max");
    }

    /** Processes of the group the OOM killer ended ({@code oom_kill} of v1 {@code memory.oom_control}, v2 events). */
    long oomKills() throws IOException {
        return counter(version == Version.V1 ? "memory.oom_control" : "memory.events", "oom_kill");
    }

    /** The kernel's OOM figures for the group, on one line. */
    String oomControl() throws IOException {
        return Files.readString(dir.resolve(version == Version.V1 ? "memory.oom_control" : "memory.events"))
                .replace('\n', ' ').trim();
    }

    private long counter(String file, String key) throws IOException {
        for (String line : Files.readAllLines(dir.resolve(file))) {
            if (line.startsWith(key + " ")) {
                return Long.parseLong(line.substring(key.length() + 1).trim());
            }
        }
        throw new IOException("this kernel's " + file + " has no " + key + " count");
    }

    private long read(String file) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(file)).trim());
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file).trim();
        } catch (IOException e) {
            return "";
        }
    }

    /** Kills what is left in the group (the processes this test started there) and removes the group. */
    @Override
    public void close() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            List<String> pids = Files.exists(dir) ? Files.readAllLines(dir.resolve("cgroup.procs")) : List.of();
            for (String pid : pids) {
                ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
            }
            try {
                Files.deleteIfExists(dir);
                return;
            } catch (IOException busy) {
                // the killed processes are still leaving the group
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while removing " + dir, e);
                }
            }
        }
        throw new IOException("could not remove the memory cgroup " + dir);
    }
}
