package io.proofline.gpu.internal;

import io.proofline.gpu.GpuConfig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MSM's tuning numbers: what the kernels accept, and the window and buffer sizes derived from them. */
class MsmShapeTest {

    @Test
    void theWindowIsLogNMinusFourClampedToTheCap() {
        MsmShape shape = MsmShape.DEFAULT;
        assertEquals(MsmShape.MIN_WINDOW, shape.windowBits(1));
        assertEquals(MsmShape.MIN_WINDOW, shape.windowBits(1 << 6));
        assertEquals(12, shape.windowBits(1 << 16));
        assertEquals(13, shape.windowBits((1 << 16) + 1), "⌈log₂n⌉");
        assertEquals(16, shape.windowBits(1 << 20));
        assertEquals(shape.maxWindow(), shape.windowBits(1 << 26));
        assertEquals(15, shape.withMaxWindow(15).windowBits(1 << 24));
    }

    @Test
    void theKernelsLimitsAreEnforced() {
        assertThrows(IllegalArgumentException.class, () -> new MsmShape(6, 4, 8, 128, 17), "chunk not a power of 2");
        assertThrows(IllegalArgumentException.class, () -> new MsmShape(8, 1, 8, 128, 17), "level length below 2");
        assertThrows(IllegalArgumentException.class, () -> new MsmShape(8, 4, 8, 2048, 17),
                "more pairs per task than the ordering by size counts in shared memory");
        assertThrows(IllegalArgumentException.class, () -> MsmShape.DEFAULT.withMaxWindow(MsmShape.MIN_WINDOW - 1));
        assertThrows(IllegalArgumentException.class, () -> MsmShape.DEFAULT.withMaxWindow(MsmShape.MAX_WINDOW + 1),
                "the sort's keys are a window's bucket in 16 bits");
        assertThrows(IllegalArgumentException.class,
                () -> new GpuConfig(GpuConfig.B2Placement.AUTO, 3, java.util.Optional.empty(), 0));
        assertThrows(IllegalArgumentException.class,
                () -> new GpuConfig(GpuConfig.B2Placement.AUTO, 18, java.util.Optional.empty(), 0));
    }

    /** The two limits MsmShape restates from the kernels' sources are the kernels' numbers. */
    @Test
    void theLimitsAreTheKernelsOwn() throws IOException {
        assertEquals(MsmShape.MAX_WINDOW, constant("native-cuda/util/config.cuh", "int MSM_MAX_WINDOW_BITS"));
        assertEquals(MsmShape.MAX_ORDERED_PER_TASK, constant("native-cuda/msm/pippenger.cuh",
                "uint32_t MAX_ORDERED_PER_TASK"));
    }

    private static int constant(String header, String declaration) throws IOException {
        Matcher m = Pattern.compile("constexpr " + declaration + " = (\\d+);")
                .matcher(Files.readString(Path.of(header), StandardCharsets.UTF_8));
        assertTrue(m.find(), header + " declares " + declaration);
        int value = Integer.parseInt(m.group(1));
        assertTrue(!m.find(), header + " declares " + declaration + " once");
        return value;
    }

    @Test
    void tasksGrowWithTheBucketsSoThatUniformBucketsStayWhole() {
        MsmShape shape = MsmShape.DEFAULT;
        assertEquals(128, shape.perTask(1 << 20, 16), "32 pairs a bucket expected");
        assertEquals(128, shape.perTask(1 << 22, 17), "64 expected: twice is the base");
        assertEquals(512, shape.perTask(1 << 24, 17), "256 expected");
        assertEquals(512, shape.perTask((1 << 24) - 5, 17), "a power of two at least twice what a bucket expects");
        assertEquals(MsmShape.MAX_ORDERED_PER_TASK, shape.perTask(1 << 26, 17), "capped by the ordering by size");
        assertEquals(128, shape.perTask(1, MsmShape.MIN_WINDOW));
    }

    @Test
    void windowsCoverTheScalarsBitsPlusTheTopCarry() {
        assertEquals(15, MsmShape.windows(17, 254), "BN254 at c = 17: 15 · 17 = 255 bits");
        assertEquals(16, MsmShape.windows(17, 255), "BLS12-381 at c = 17: 255 bits need a 256th for the top carry");
        assertEquals(16, MsmShape.windows(16, 254));
        assertEquals(16, MsmShape.windows(16, 255));
        assertEquals(64, MsmShape.windows(4, 255));
        assertEquals(51, MsmShape.windows(5, 254), "⌈255/5⌉");
    }

    @Test
    void levelOneHoldsEveryTask() {
        MsmShape shape = MsmShape.DEFAULT;
        int c = 16;
        int n = 1 << 20;
        int windows = MsmShape.windows(c, 254);
        assertEquals(16, windows, "⌈255/16⌉");
        long buckets = (long) windows << (c - 1);
        // Tasks: ⌈count/perTask⌉ per bucket ≤ one per bucket plus one per perTask pairs of the n·W pairs.
        assertEquals(buckets + (long) n * windows / shape.perTask(n, c), shape.levelEntries(n, c, 254));
        assertTrue(shape.levelEntries(n, c, 254) >= buckets);
    }

    @Test
    void theConfiguredCapBecomesTheShapes() {
        GpuConfig config = new GpuConfig(GpuConfig.B2Placement.HOST, 15, java.util.Optional.empty(), 0);
        assertEquals(15, config.msmShape().maxWindow());
        assertEquals(MsmShape.DEFAULT.perTask(), config.msmShape().perTask());
        assertTrue(GpuConfig.B2Placement.AUTO.onDevice(100, 100));
        assertTrue(!GpuConfig.B2Placement.AUTO.onDevice(101, 100));
        assertTrue(GpuConfig.B2Placement.DEVICE.onDevice(101, 100));
        assertTrue(!GpuConfig.B2Placement.HOST.onDevice(1, 100));
    }
}
