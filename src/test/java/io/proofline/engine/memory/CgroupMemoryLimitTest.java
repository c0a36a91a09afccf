package io.proofline.engine.memory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The cgroup limit against fake {@code /proc} and {@code /sys} trees laid out as the kernel lays them out. */
class CgroupMemoryLimitTest {

    private static final String V1_MOUNTS = """
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
            35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;
    private static final String V1_UNLIMITED = "9223372036854771712";

    @TempDir
    Path root;

    @Test
    void v1OnAHostReadsTheProcessesOwnGroupNotTheRoot() throws IOException {
        write("proc/self/mountinfo", V1_MOUNTS);
        write("proc/self/cgroup", "8:pids:/\n4:memory:/jobs/test-1\n1:cpu:/\n0::/\n");
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", V1_UNLIMITED);
        write("sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", V1_UNLIMITED);
        write("sys/fs/cgroup/memory/jobs/test-1/memory.limit_in_bytes", "1342177280\n");
        assertEquals(OptionalLong.of(1342177280L), CgroupMemoryLimit.read(root));
    }

    @Test
    void aParentsSmallerLimitBindsTheChild() throws IOException {
        write("proc/self/mountinfo", V1_MOUNTS);
        write("proc/self/cgroup", "4:memory:/jobs/test-1\n");
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", V1_UNLIMITED);
        write("sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "1073741824");
        write("sys/fs/cgroup/memory/jobs/test-1/memory.limit_in_bytes", V1_UNLIMITED);
        assertEquals(OptionalLong.of(1073741824L), CgroupMemoryLimit.read(root));
    }

    @Test
    void v1UnlimitedEverywhereIsNoLimit() throws IOException {
        write("proc/self/mountinfo", V1_MOUNTS);
        write("proc/self/cgroup", "4:memory:/a\n");
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", V1_UNLIMITED);
        write("sys/fs/cgroup/memory/a/memory.limit_in_bytes", V1_UNLIMITED);
        assertEquals(OptionalLong.empty(), CgroupMemoryLimit.read(root));
    }

    @Test
    void v1InAContainerWhoseMountRootIsItsOwnGroup() throws IOException {
        write("proc/self/mountinfo", "35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n");
        write("proc/self/cgroup", "4:memory:/docker/abc\n");
        write("sys/fs/cgroup/memory/memory.limit_in_bytes", "3221225472");
        assertEquals(OptionalLong.of(3221225472L), CgroupMemoryLimit.read(root));
    }

    @Test
    void v2UnifiedWalksUpAndMaxMeansNone() throws IOException {
        write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
        write("proc/self/cgroup", "0::/system.slice/proofline.service\n");
        write("sys/fs/cgroup/system.slice/proofline.service/memory.max", "max\n");
        write("sys/fs/cgroup/system.slice/memory.max", "17179869184\n");
        assertEquals(OptionalLong.of(17179869184L), CgroupMemoryLimit.read(root));
        write("sys/fs/cgroup/system.slice/memory.max", "max\n");
        assertEquals(OptionalLong.empty(), CgroupMemoryLimit.read(root));
    }

    @Test
    void v2InAContainerNamespaceAtTheMountRoot() throws IOException {
        write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n");
        write("proc/self/cgroup", "0::/\n");
        write("sys/fs/cgroup/memory.max", "2147483648\n");
        assertEquals(OptionalLong.of(2147483648L), CgroupMemoryLimit.read(root));
    }

    @Test
    void nothingReadableIsNoLimit() {
        assertEquals(OptionalLong.empty(), CgroupMemoryLimit.read(root));
    }

    @Test
    void limitFilesAreParsedStrictly() {
        assertEquals(OptionalLong.of(4096), CgroupMemoryLimit.parseLimit("4096\n", true));
        assertEquals(OptionalLong.empty(), CgroupMemoryLimit.parseLimit("max", true));
        assertEquals(OptionalLong.empty(), CgroupMemoryLimit.parseLimit(V1_UNLIMITED, false));
        assertEquals(OptionalLong.empty(), CgroupMemoryLimit.parseLimit("garbage", false));
        assertEquals(OptionalLong.empty(), CgroupMemoryLimit.parseLimit(null, false));
    }

    private void write(String relative, String content) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }
}
