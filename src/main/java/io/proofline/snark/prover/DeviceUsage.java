package io.proofline.snark.prover;

/**
 * A device backend's memory as it last saw it (DESIGN §3's {@code KEY_DEVICE} and {@code SCRATCH_DEVICE}): what it
 * holds by class, and the device's own used/free figures ({@code -1} where unknown). The engine turns it into its
 * {@code DeviceMemory} for the buffer table; this package cannot name the engine's types.
 *
 * @param usedBytes        bytes in use on the device (all processes), as the driver reported it; -1 if unknown
 * @param freeBytes        bytes free on the device; -1 if unknown
 * @param residentKeys     proving keys resident on the device
 * @param residentKeyBytes their bytes
 * @param scratchBuffers   working buffers the backend keeps on the device
 * @param scratchBytes     their bytes
 * @param abcBuffers       of the working buffers, those that hold a/b/c in prove start
 * @param abcBytes         their bytes
 */
public record DeviceUsage(long usedBytes, long freeBytes, long residentKeys, long residentKeyBytes,
                          long scratchBuffers, long scratchBytes, long abcBuffers, long abcBytes) {

    /** A device not opened yet: nothing held, its memory not read. */
    public static final DeviceUsage NOTHING_HELD = new DeviceUsage(-1, -1, 0, 0, 0, 0);

    public DeviceUsage {
        if (residentKeys < 0 || residentKeyBytes < 0 || scratchBuffers < 0 || scratchBytes < 0 || abcBuffers < 0
                || abcBytes < 0 || abcBuffers > scratchBuffers || abcBytes > scratchBytes) {
            throw new IllegalArgumentException("negative buffer figures, or a/b/c beyond the working buffers");
        }
    }

    /** Without a/b/c among the working buffers. */
    public DeviceUsage(long usedBytes, long freeBytes, long residentKeys, long residentKeyBytes, long scratchBuffers,
                       long scratchBytes) {
        this(usedBytes, freeBytes, residentKeys, residentKeyBytes, scratchBuffers, scratchBytes, 0, 0);
    }

    /** The same figures with the resident keys replaced (after an eviction outside a proof). */
    public DeviceUsage withKeys(long keys, long keyBytes) {
        return new DeviceUsage(usedBytes, freeBytes, keys, keyBytes, scratchBuffers, scratchBytes, abcBuffers,
                abcBytes);
    }
}
