package io.proofline.snark;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Field elements stored in a {@link MemorySegment} as snarkjs stores them: {@code limbs} little-endian 64-bit words
 * at any byte offset (sections are not aligned, hence the unaligned layout). Whether the words are a canonical value
 * or its Montgomery form depends on the section; these helpers only move and compare words.
 */
public final class SegmentLimbs {

    /** A little-endian 64-bit word at any offset: how every limb of every snarkjs file is read. */
    public static final ValueLayout.OfLong LIMB = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** A thread that never runs: a segment it may access is accessible from any thread. */
    private static final Thread ANY_OTHER_THREAD = Thread.ofPlatform().unstarted(() -> { });

    private SegmentLimbs() {
    }

    /**
     * Whether {@code seg} may be read from other threads (heap, global or shared-arena memory), so that a parallel
     * stream may touch it; a confined arena's segment must stay on its owner thread.
     */
    public static boolean isShared(MemorySegment seg) {
        return seg.isAccessibleBy(ANY_OTHER_THREAD);
    }

    /** Copies {@code limbs} words at byte offset {@code off} into {@code dst[dstOff..]}. */
    public static void read(MemorySegment seg, long off, int limbs, long[] dst, int dstOff) {
        for (int i = 0; i < limbs; i++) {
            dst[dstOff + i] = seg.get(LIMB, off + 8L * i);
        }
    }

    /** Writes {@code limbs} words of {@code src[srcOff..]} at byte offset {@code off}. */
    public static void write(long[] src, int srcOff, int limbs, MemorySegment seg, long off) {
        for (int i = 0; i < limbs; i++) {
            seg.set(LIMB, off + 8L * i, src[srcOff + i]);
        }
    }

    /** Whether the value at {@code off} (as an unsigned integer) is below {@code modulus} (little-endian limbs). */
    public static boolean lessThan(MemorySegment seg, long off, long[] modulus) {
        for (int i = modulus.length - 1; i >= 0; i--) {
            long v = seg.get(LIMB, off + 8L * i);
            if (v != modulus[i]) {
                return Long.compareUnsigned(v, modulus[i]) < 0;
            }
        }
        return false;
    }

    /** Whether all {@code bytes} bytes at {@code off} are zero (snarkjs's encoding of the point at infinity). */
    public static boolean allZero(MemorySegment seg, long off, long bytes) {
        for (long i = 0; i < bytes; i += 8) {
            if (seg.get(LIMB, off + i) != 0) {
                return false;
            }
        }
        return true;
    }
}
