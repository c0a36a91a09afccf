package io.proofline.engine;

import io.proofline.engine.EngineConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcFilesTest {

    @Test
    void cgroupV2LimitWinsAndMaxMeansNone() {
        assertEquals(OptionalLong.of(8_589_934_592L), ProcFiles.cgroupLimit("8589934592\n", null));
        assertEquals(OptionalLong.empty(), ProcFiles.cgroupLimit("max", null));
    }

    @Test
    void cgroupV1LimitIsUsedUnlessItIsTheUnlimitedSentinel() {
        assertEquals(OptionalLong.of(4_294_967_296L), ProcFiles.cgroupLimit(null, "4294967296"));
        assertEquals(OptionalLong.empty(), ProcFiles.cgroupLimit(null, "9223372036854771712"));
        assertEquals(OptionalLong.empty(), ProcFiles.cgroupLimit(null, null));
    }

    @Test
    void kibFieldsAreReadInBytes() {
        List<String> status = List.of("Name:\tjava", "VmHWM:\t  2048 kB", "VmRSS:\t  1024 kB");
        assertEquals(1024 * 1024, ProcFiles.kibField(status, "VmRSS:"));
        assertEquals(2048 * 1024, ProcFiles.kibField(status, "VmHWM:"));
        assertEquals(-1, ProcFiles.kibField(status, "VmSwap:"));
    }

    @Test
    void defaultBudgetIsTheLimitLessHeadroom() {
        long gib = 1L << 30;
        assertEquals(14 * gib, EngineConfig.budgetFrom(OptionalLong.of(16 * gib), 2 * gib));
        assertEquals(gib / 2, EngineConfig.budgetFrom(OptionalLong.of(gib), 2 * gib), "never below half the limit");
        long resolved = EngineConfig.builder().headroomBytes(0).build().budgetBytes();
        assertTrue(resolved > 0);
        ProcFiles.memoryLimit().ifPresent(limit -> assertEquals(limit, resolved));
    }
}
