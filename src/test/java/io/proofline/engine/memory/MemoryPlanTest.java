package io.proofline.engine.memory;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The memory limit, the heap rule, the fixed part and the budget they leave. */
class MemoryPlanTest {

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;
    private static final FixedMemory FIXED = new FixedMemory(512 * MIB, 256 * MIB, 128 * MIB, 100 * MIB, 0, 256 * MIB);

    @Test
    void theCgroupLimitWinsUnlessAConfiguredOneIsSmaller() {
        OptionalLong none = OptionalLong.empty();
        assertEquals(new MemoryLimit(2 * GIB, MemoryLimit.Source.CGROUP),
                MemoryLimit.choose(OptionalLong.of(2 * GIB), OptionalLong.of(4 * GIB), OptionalLong.of(32 * GIB)));
        assertEquals(new MemoryLimit(GIB, MemoryLimit.Source.CONFIGURED),
                MemoryLimit.choose(OptionalLong.of(2 * GIB), OptionalLong.of(GIB), OptionalLong.of(32 * GIB)));
        assertEquals(new MemoryLimit(32 * GIB, MemoryLimit.Source.MEM_TOTAL),
                MemoryLimit.choose(none, none, OptionalLong.of(32 * GIB)));
        assertEquals(MemoryLimit.Source.FALLBACK, MemoryLimit.choose(none, none, none).source());
    }

    @Test
    void heapIsAQuarterOfTheLimitWithinItsBounds() {
        assertEquals(256 * MIB, HeapRule.maxHeapBytes(512 * MIB));
        assertEquals(384 * MIB, HeapRule.maxHeapBytes(1536 * MIB));
        assertEquals(768 * MIB, HeapRule.maxHeapBytes(3 * GIB));
        assertEquals(GIB, HeapRule.maxHeapBytes(128 * GIB));
        assertEquals(List.of("-Xmx768m", "-XX:MaxMetaspaceSize=256m", "-XX:ReservedCodeCacheSize=128m", "-Xss512k",
                "-XX:+ExitOnOutOfMemoryError"), HeapRule.jvmOptions(3 * GIB));
    }

    @Test
    void budgetIsTheLimitLessTheFixedPart() {
        MemoryPlan plan = MemoryPlan.of(new MemoryLimit(3 * GIB, MemoryLimit.Source.CGROUP), FIXED, OptionalLong.empty());
        assertEquals(3 * GIB - FIXED.totalBytes(), plan.budgetBytes());
        assertFalse(plan.lowered());
        assertEquals(FIXED.totalBytes(), FIXED.figures().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void anExplicitBudgetIsKeptWhenItFitsAndLoweredWhenItDoesNot() {
        MemoryLimit limit = new MemoryLimit(3 * GIB, MemoryLimit.Source.CGROUP);
        assertEquals(GIB, MemoryPlan.of(limit, FIXED, OptionalLong.of(GIB)).budgetBytes());
        MemoryPlan lowered = MemoryPlan.of(limit, FIXED, OptionalLong.of(8 * GIB));
        assertTrue(lowered.lowered());
        assertEquals(3 * GIB - FIXED.totalBytes(), lowered.budgetBytes());
        assertTrue(lowered.describe().contains("lowered"), lowered.describe());
    }

    @Test
    void aLimitThatLeavesTooLittleIsRefusedWithTheFigures() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MemoryPlan.of(new MemoryLimit(1280 * MIB, MemoryLimit.Source.CGROUP), FIXED, OptionalLong.empty()));
        assertTrue(e.getMessage().contains("1280 MiB (CGROUP)") && e.getMessage().contains("metaspace 256 MiB"),
                e.getMessage());
        assertThrows(IllegalStateException.class, () -> MemoryPlan.of(new MemoryLimit(3 * GIB,
                MemoryLimit.Source.CGROUP), FIXED, OptionalLong.of(MIB)));
    }

    @Test
    void unaccountedIsRssLessTrackedHeapAndTheNonHeapFixedPart() {
        MemoryPlan plan = MemoryPlan.of(new MemoryLimit(3 * GIB, MemoryLimit.Source.CGROUP), FIXED, OptionalLong.empty());
        assertEquals(2 * GIB - 300 * MIB - 200 * MIB - (FIXED.totalBytes() - 512 * MIB),
                plan.unaccountedBytes(2 * GIB, 300 * MIB, 200 * MIB));
    }

    @Test
    void thisJvmsFiguresAreItsOwn() {
        FixedMemory fixed = FixedMemory.ofThisJvm(10, 1, 64 * MIB);
        assertEquals(Runtime.getRuntime().maxMemory(), fixed.maxHeapBytes());
        assertEquals(FixedMemory.CUDA_CONTEXT_HOST_BYTES, fixed.cudaContextBytes());
        assertTrue(fixed.threadStacksBytes() > 0 && fixed.threadStacksBytes() % 10 == 0);
        assertTrue(fixed.metaspaceBytes() > 0 && fixed.codeCacheBytes() > 0);
    }
}
