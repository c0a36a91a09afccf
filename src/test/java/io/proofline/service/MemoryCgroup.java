package io.proofline.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A cgroup v1 memory group of its own under {@code /sys/fs/cgroup/memory} (root only), for tests that run a process
 * against a real memory limit: past it, the kernel's OOM killer ends the process (SIGKILL, exit status 137).
 * {@link #close()} kills what is still in the group (only processes this test put there) and removes the group.
 */
final class MemoryCgroup implements AutoCloseable {

    static final Path ROOT = Path.of("/sys/fs/cgroup/memory");

    private final Path dir;
    private final long limitBytes;

    private MemoryCgroup(Path dir, long limitBytes) {
        this.dir = dir;
        this.limitBytes = limitBytes;
    }

    /** Why a memory group cannot be made here, or empty where it can (probed by making and removing one). */
    static Optional<String> unavailableReason() {
        if (!Files.isWritable(ROOT.resolve("cgroup.procs")) || !Files.exists(ROOT.resolve("memory.limit_in_bytes"))) {
            return Optional.of("the cgroup v1 memory controller is not mounted writable at " + ROOT
                    + " (needs root and cgroup v1; cgroup v2 only or a read-only /sys)");
        }
        Path probe = ROOT.resolve("proofline-probe-" + ProcessHandle.current().pid());
        try {
            Files.createDirectory(probe);
            Files.writeString(probe.resolve("memory.limit_in_bytes"), Long.toString(256L << 20));
            // a process must be able to move itself in (a nested container may forbid it)
            Process moved = new ProcessBuilder("sh", "-c", "echo $$ > \"$0\"", probe.resolve("cgroup.procs").toString())
                    .redirectErrorStream(true).start();
            String said = new String(moved.getInputStream().readAllBytes()).trim();
            if (moved.waitFor() != 0) {
                return Optional.of("a process cannot join a memory cgroup under " + ROOT + ": " + said);
            }
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while probing the memory cgroup controller");
        } catch (IOException e) {
            return Optional.of("cannot create a memory cgroup under " + ROOT + ": " + e);
        } finally {
            removeWhenEmpty(probe);
        }
    }

    /** Removes a group whose processes have exited; the kernel may take a moment to let go of them. */
    private static void removeWhenEmpty(Path group) {
        for (int attempt = 0; attempt < 50; attempt++) {
            try {
                Files.deleteIfExists(group);
                return;
            } catch (IOException busy) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** A new group named {@code name} limited to {@code limitBytes} of memory (page cache included, as in v1). */
    static MemoryCgroup create(String name, long limitBytes) throws IOException {
        Path dir = ROOT.resolve(name);
        Files.createDirectory(dir);
        MemoryCgroup group = new MemoryCgroup(dir, limitBytes);
        try {
            Files.writeString(dir.resolve("memory.limit_in_bytes"), Long.toString(limitBytes));
            long set = group.read("memory.limit_in_bytes");
            if (set != limitBytes) {
                throw new IOException("the kernel set the limit to " + set + " instead of " + limitBytes);
            }
        } catch (IOException e) {
            group.close();
            throw e;
        }
        return group;
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

    long limitBytes() {
        return limitBytes;
    }

    /** The most memory the group held at once ({@code memory.max_usage_in_bytes}). */
    long maxUsageBytes() throws IOException {
        return read("memory.max_usage_in_bytes");
    }

    /** How often the group hit its limit ({@code memory.failcnt}); reclaimed page cache counts too. */
    long failCount() throws IOException {
        return read("memory.failcnt");
    }

    /** Processes of the group the OOM killer ended ({@code oom_kill} of {@code memory.oom_control}). */
    long oomKills() throws IOException {
        for (String line : Files.readAllLines(dir.resolve("memory.oom_control"))) {
            if (line.startsWith("oom_kill ")) {
                return Long.parseLong(line.substring("oom_kill ".length()).trim());
            }
        }
        throw new IOException("this kernel's memory.oom_control has no oom_kill count");
    }

    String oomControl() throws IOException {
        return Files.readString(dir.resolve("memory.oom_control")).replace('\n', ' ').trim();
    }

    private long read(String file) throws IOException {
        return Long.parseLong(Files.readString(dir.resolve(file)).trim());
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
